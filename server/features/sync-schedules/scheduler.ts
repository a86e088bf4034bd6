import type { AppDeps } from '../../context';
import { holdLease } from '../../db/leases';
import { runDueSchedules, type SyncJobs } from './schedules';

/** Due schedules are looked for this often: cron's finest step is a minute. */
const LOOK_EVERY_MS = 20_000;
const SCHEDULER_LEASE = 'sync-scheduler';

/**
 * Starts due sync schedules while this instance holds the scheduler's lease (one instance at a time; another takes
 * over when it stops). Returns the stop function.
 */
export function startSyncScheduler(deps: AppDeps, jobs: SyncJobs, everyMs = LOOK_EVERY_MS): () => void {
  const look = async () => {
    if (await holdLease(deps.db, SCHEDULER_LEASE, deps.now(), 3 * everyMs)) await runDueSchedules(deps, jobs);
  };
  const timer = setInterval(() => void look().catch((error: unknown) => console.error('Starting due sync schedules failed:', error)), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
