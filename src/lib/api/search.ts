import * as v from 'valibot';
import {
  mountIndexListSchema,
  mountIndexSchema,
  fsSearchResultSchema,
  shareSearchResultSchema,
  type FsSearchQuery,
} from '../../../contract/search';
import { apiRequest, currentScope } from './client';

/** The query string of a search, without the parameters left unset. */
const queryOf = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();

/** Names in the mounts' indexes below `path`: `/admin` for admins, `/user` (within the key's base path) for keys. */
export const searchFs = (query: FsSearchQuery, signal?: AbortSignal) =>
  apiRequest(`/${currentScope()}/fs/search?${queryOf({ ...query })}`, {
    schema: fsSearchResultSchema,
    fileRoute: true,
    ...(signal && { signal }),
  });

/** Pastes and file shares by their words: every share for admins, a key's own for keys. */
export const searchShares = (q: string) => apiRequest(`/${currentScope()}/search/shares?${queryOf({ q })}`, { schema: shareSearchResultSchema });

export const listMountIndexes = () => apiRequest('/admin/fs/index', { schema: mountIndexListSchema });

export const rebuildMountIndex = (mountId: string) =>
  apiRequest('/admin/fs/index/rebuild', { method: 'POST', body: { mountId }, schema: v.unknown() });

export const setIndexRescan = (mountId: string, rescanMinutes: number) =>
  apiRequest(`/admin/fs/index/${encodeURIComponent(mountId)}`, { method: 'PUT', body: { rescanMinutes }, schema: mountIndexSchema });
