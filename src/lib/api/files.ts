import { dashboardStatsSchema, fileListSchema, fileShareSchema, type UpdateFileRequest } from '../../../contract/files';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { apiRequest, currentScope } from './client';
import { filePath } from './file-reads';

const enc = encodeURIComponent;

export const fileShareUrl = (slug: string) => `${window.location.origin}/file/${enc(slug)}`;

export const listFiles = (limit: number, offset: number) =>
  apiRequest(`/${currentScope()}/files?limit=${limit}&offset=${offset}`, { schema: fileListSchema, fileRoute: true });

export const updateFile = (id: string, body: UpdateFileRequest) =>
  apiRequest(filePath(id), { method: 'PUT', body, schema: fileShareSchema, fileRoute: true });

export const batchDeleteFiles = (ids: string[]) =>
  apiRequest(`/${currentScope()}/files/batch-delete`, {
    method: 'POST',
    body: { ids },
    schema: batchDeleteResultSchema,
    fileRoute: true,
  });

export const getDashboardStats = () => apiRequest('/admin/dashboard/stats', { schema: dashboardStatsSchema });
