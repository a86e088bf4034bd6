import type { TestProject } from 'vitest/node';
import { provideCluster } from '../fixtures/postgres-setup';

/** Several instances need one database they share: the integration tests always run on PostgreSQL. */
export default function setup(project: TestProject) {
  return provideCluster(project);
}
