import * as v from 'valibot';
import { jobListSchema, jobSchema, streamTicketSchema } from '../../../contract/jobs';
import { backendBaseUrl } from '../backend-url';
import { apiRequest } from './client';

/** The admin's live streams: `EventSource` cannot send the token, so each opening asks for a ticket first. */
export async function liveStreamUrl(path: '/admin/transfers/events' | '/admin/jobs/events'): Promise<string> {
  const { ticket } = await apiRequest('/admin/stream-ticket', { method: 'POST', schema: streamTicketSchema });
  return `${backendBaseUrl()}/api${path}?ticket=${encodeURIComponent(ticket)}`;
}

export const cancelJob = (id: string) => apiRequest(`/admin/jobs/${encodeURIComponent(id)}/cancel`, { method: 'POST', schema: v.optional(jobSchema) });

/** How many server jobs run now (the dashboard's card): the list's total, one item fetched. */
export const countRunningJobs = async () =>
  (await apiRequest('/admin/jobs?status=running&limit=1', { schema: jobListSchema })).pagination.total;
