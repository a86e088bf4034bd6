import * as v from 'valibot';
import { jobSchema, syncDryRunSchema, syncScheduleSchema, type SyncScheduleBody } from '../../../contract/jobs';
import { apiRequest } from './client';

const path = (id = '') => `/admin/sync-schedules${id && `/${encodeURIComponent(id)}`}`;

export const listSyncSchedules = () => apiRequest(path(), { schema: v.array(syncScheduleSchema) });

export const createSyncSchedule = (body: SyncScheduleBody) => apiRequest(path(), { method: 'POST', body, schema: syncScheduleSchema });

export const updateSyncSchedule = (id: string, body: SyncScheduleBody) => apiRequest(path(id), { method: 'PUT', body, schema: syncScheduleSchema });

export const deleteSyncSchedule = (id: string) => apiRequest(path(id), { method: 'DELETE', schema: v.unknown() });

export const runSyncSchedule = (id: string) => apiRequest(`${path(id)}/run`, { method: 'POST', schema: jobSchema });

export const dryRunSyncSchedule = (id: string) => apiRequest(`${path(id)}/dry-run`, { method: 'POST', schema: syncDryRunSchema });
