import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import {
  adminPasteListSchema,
  clearExpiredResultSchema,
  createdPasteSchema,
  pasteDetailSchema,
  publicPasteSchema,
  userPasteListSchema,
  type CreatePasteRequest,
  type UpdatePasteRequest,
} from '../../../contract/pastes';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { readSharePeek } from '../../../contract/share-peek';
import { slugAvailabilitySchema } from '../../../contract/slugs';
import { backendBaseUrl } from '../backend-url';
import { apiHead, ApiRequestError, apiRequest, currentScope } from './client';

const enc = encodeURIComponent;

export const createPaste = (body: CreatePasteRequest) =>
  apiRequest('/paste', { method: 'POST', body, schema: createdPasteSchema });

const pasteReads = new Map<string, ReturnType<typeof readPaste>>();
const readPaste = (slug: string) => apiRequest(`/paste/${enc(slug)}`, { schema: publicPasteSchema });

/**
 * Opening a paste counts a view, so a page that asks twice at once (a remount, React's development double
 * effects) must share one request rather than spend two views.
 */
export function getPaste(slug: string) {
  const pending = pasteReads.get(slug);
  if (pending) return pending;
  const request = readPaste(slug).finally(() => pasteReads.delete(slug));
  pasteReads.set(slug, request);
  return request;
}

/** What a paste is (contract/share-peek.ts), without spending a view. */
export async function peekPaste(slug: string) {
  const peek = readSharePeek(await apiHead(`/paste/${enc(slug)}`));
  if (!peek) throw new ApiRequestError('internal', 200, t`The server sent an unexpected answer`);
  return peek;
}

export const unlockPaste = (slug: string, password: string) =>
  apiRequest(`/paste/${enc(slug)}`, {
    method: 'POST',
    body: { password },
    schema: publicPasteSchema,
    ownUnauthorizedMessage: t`Wrong password`,
  });

export const isPasteSlugAvailable = (slug: string, signal?: AbortSignal) =>
  apiRequest(`/slugs/paste/${enc(slug)}`, { schema: slugAvailabilitySchema, signal }).then((r) => r.available);

/** The raw link: plain text, for curl and scripts; a password goes in the query. */
export function rawPasteUrl(slug: string, password?: string): string {
  const url = `${backendBaseUrl()}/api/raw/${enc(slug)}`;
  return password ? `${url}?password=${enc(password)}` : url;
}

export const pasteShareUrl = (slug: string) => `${window.location.origin}/paste/${enc(slug)}`;

/** Admins manage every paste through /admin, API keys their own through /user. */
export const listPastes = (page: number, limit: number) =>
  currentScope() === 'admin'
    ? apiRequest(`/admin/pastes?page=${page}&limit=${limit}`, { schema: adminPasteListSchema }).then((r) => ({
        items: r.items,
        total: r.pagination.total,
      }))
    : apiRequest(`/user/pastes?limit=${limit}&offset=${(page - 1) * limit}`, { schema: userPasteListSchema }).then(
        (r) => ({ items: r.items, total: r.pagination.total }),
      );

const pastePath = (id: string) => `/${currentScope()}/pastes/${enc(id)}`;

export const getPasteDetail = (id: string) => apiRequest(pastePath(id), { schema: pasteDetailSchema });

export const updatePaste = (id: string, body: UpdatePasteRequest) =>
  apiRequest(pastePath(id), { method: 'PUT', body, schema: pasteDetailSchema });

export const deletePaste = (id: string) => apiRequest(pastePath(id), { method: 'DELETE', schema: v.unknown() });

export const batchDeletePastes = (ids: string[]) =>
  apiRequest(`/${currentScope()}/pastes/batch-delete`, { method: 'POST', body: { ids }, schema: batchDeleteResultSchema });

export const clearExpiredPastes = () =>
  apiRequest('/admin/pastes/clear-expired', { method: 'POST', body: { clearExpired: true }, schema: clearExpiredResultSchema });
