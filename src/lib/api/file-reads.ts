// What a file share's page calls (its reads, the previews' text, the owner's delete), apart from the uploads' and the
// management's calls (./files.ts), so that a visitor's page loads only these.
import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import { publicFileSchema } from '../../../contract/public-file';
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

/** Absolute URL of a signed preview/download path the server handed out. */
export const absoluteApiUrl = (path: string) => (/^https?:/.test(path) ? path : `${backendBaseUrl()}${path}`);

/** A file share's management path: the admin's or the key's own. */
export const filePath = (id: string) => `/${currentScope()}/files/${enc(id)}`;

export const deleteFile = (id: string) => apiRequest(filePath(id), { method: 'DELETE', schema: v.unknown(), fileRoute: true });

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
