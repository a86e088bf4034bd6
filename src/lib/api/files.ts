import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import {
  dashboardStatsSchema,
  fileListSchema,
  fileShareSchema,
  publicFileSchema,
  type UpdateFileRequest,
} from '../../../contract/files';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { backendBaseUrl } from '../backend-url';
import { apiRequest, currentScope } from './client';

const enc = encodeURIComponent;

const fileReads = new Map<string, ReturnType<typeof readFile>>();
const readFile = (slug: string) => apiRequest(`/public/files/${enc(slug)}`, { schema: publicFileSchema });

/** Opening a file share counts a view: simultaneous asks share one request (see getPaste). */
export function getPublicFile(slug: string) {
  const pending = fileReads.get(slug);
  if (pending) return pending;
  const request = readFile(slug).finally(() => fileReads.delete(slug));
  fileReads.set(slug, request);
  return request;
}

export const verifyFilePassword = (slug: string, password: string) =>
  apiRequest(`/public/files/${enc(slug)}/verify`, {
    method: 'POST',
    body: { password },
    schema: publicFileSchema,
    ownUnauthorizedMessage: t`Wrong password`,
  });

export const fileShareUrl = (slug: string) => `${window.location.origin}/file/${enc(slug)}`;

/** Absolute URL of a signed preview/download path the server handed out. */
export const absoluteApiUrl = (path: string) => (/^https?:/.test(path) ? path : `${backendBaseUrl()}${path}`);

const filePath = (id: string) => `/${currentScope()}/files/${enc(id)}`;

export const listFiles = (limit: number, offset: number) =>
  apiRequest(`/${currentScope()}/files?limit=${limit}&offset=${offset}`, { schema: fileListSchema, fileRoute: true });

export const updateFile = (id: string, body: UpdateFileRequest) =>
  apiRequest(filePath(id), { method: 'PUT', body, schema: fileShareSchema, fileRoute: true });

export const deleteFile = (id: string) => apiRequest(filePath(id), { method: 'DELETE', schema: v.unknown(), fileRoute: true });

export const batchDeleteFiles = (ids: string[]) =>
  apiRequest(`/${currentScope()}/files/batch-delete`, {
    method: 'POST',
    body: { ids },
    schema: batchDeleteResultSchema,
    fileRoute: true,
  });

export const getDashboardStats = () => apiRequest('/admin/dashboard/stats', { schema: dashboardStatsSchema });

/** Text previews are capped: a visitor's browser should not pull a huge log just to show its start. */
export const TEXT_PREVIEW_MAX_BYTES = 1024 * 1024;

/** The start of a text file for its preview (the signed preview URL counts no further view). */
export async function loadTextPreview(url: string): Promise<{ text: string; truncated: boolean }> {
  const response = await fetch(absoluteApiUrl(url), { headers: { Range: `bytes=0-${TEXT_PREVIEW_MAX_BYTES - 1}` } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const text = await response.text();
  const total = Number(response.headers.get('Content-Range')?.split('/')[1] ?? text.length);
  return { text, truncated: total > TEXT_PREVIEW_MAX_BYTES };
}
