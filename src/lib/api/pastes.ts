import * as v from 'valibot';
import {
  adminPasteListSchema,
  clearExpiredResultSchema,
  createdPasteSchema,
  pasteDetailSchema,
  userPasteListSchema,
  type CreatePasteRequest,
  type UpdatePasteRequest,
} from '../../../contract/pastes';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { slugAvailabilitySchema } from '../../../contract/slugs';
import { apiRequest, currentScope } from './client';

const enc = encodeURIComponent;

export const createPaste = (body: CreatePasteRequest) =>
  apiRequest('/paste', { method: 'POST', body, schema: createdPasteSchema });

export const isPasteSlugAvailable = (slug: string, signal?: AbortSignal) =>
  apiRequest(`/slugs/paste/${enc(slug)}`, { schema: slugAvailabilitySchema, signal }).then((r) => r.available);

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
