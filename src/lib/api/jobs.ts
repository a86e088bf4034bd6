import { jobListSchema, jobSchema, type CreateJobBody, type JobStatus } from '../../../contract/jobs';
import type { FsConflictPolicy } from '../../../contract/fs';
import { apiRequest, currentScope } from './client';

/** The server jobs of the signed-in user: `/admin/jobs` (every job) for admins, `/user/jobs` (its own) for keys. */
export const jobsPath = (call = '') => `/${currentScope()}/jobs${call}`;

export const createJob = (request: CreateJobBody) => apiRequest(jobsPath(), { method: 'POST', body: request, schema: jobSchema, fileRoute: true });

export const getJob = (id: string) => apiRequest(jobsPath(`/${encodeURIComponent(id)}`), { schema: jobSchema, fileRoute: true });

export const listJobs = (options: { status?: JobStatus; limit?: number; offset?: number } = {}) => {
  const query = new URLSearchParams({ limit: String(options.limit ?? 50), offset: String(options.offset ?? 0), ...(options.status && { status: options.status }) });
  return apiRequest(`${jobsPath()}?${query}`, { schema: jobListSchema, fileRoute: true });
};

export type JobCommand = 'cancel' | 'pause' | 'resume' | 'retry-failed';

/** `retry-failed` may say what becomes of the failed items whose name was taken (the user's choice). */
export const commandJob = (id: string, command: JobCommand, body: { onConflict?: FsConflictPolicy } = {}) =>
  apiRequest(jobsPath(`/${encodeURIComponent(id)}/${command}`), { method: 'POST', body, schema: jobSchema, fileRoute: true });

/** How many server jobs run now (the dashboard's card): the list's total, one item fetched. */
export const countRunningJobs = async () => (await listJobs({ status: 'running', limit: 1 })).pagination.total;
