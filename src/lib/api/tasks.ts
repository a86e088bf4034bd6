import * as v from 'valibot';
import { jobListSchema, jobSchema } from '../../../contract/jobs';
import { apiRequest } from './client';

export const cancelJob = (id: string) => apiRequest(`/admin/jobs/${encodeURIComponent(id)}/cancel`, { method: 'POST', schema: v.optional(jobSchema) });

/** How many server jobs run now (the dashboard's card): the list's total, one item fetched. */
export const countRunningJobs = async () =>
  (await apiRequest('/admin/jobs?status=running&limit=1', { schema: jobListSchema })).pagination.total;
