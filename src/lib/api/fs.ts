import * as v from 'valibot';
import {
  fsBatchResultSchema,
  fsEntrySchema,
  fsLinkSchema,
  fsListingSchema,
  FS_LINK_SECONDS,
} from '../../../contract/fs';
import { fsThumbnailLinksSchema } from '../../../contract/thumbnails';
import { apiRequest, currentScope } from './client';

/** The mount file system of the signed-in user: `/admin/fs` for admins, `/user/fs` for keys. */
const fs = (call: string) => `/${currentScope()}/fs/${call}`;
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** `refresh` bypasses the server's directory cache; `page` asks for `limit` items from `offset` rather than all. */
export const listFolder = (path: string, options: { refresh?: boolean; signal?: AbortSignal; page?: { offset: number; limit: number } } = {}) =>
  apiRequest(
    `${fs('list')}?${query({
      path,
      ...(options.refresh && { refresh: 'true' }),
      ...(options.page && { offset: String(options.page.offset), limit: String(options.page.limit) }),
    })}`,
    {
      schema: fsListingSchema,
      fileRoute: true,
      ...(options.signal && { signal: options.signal }),
    },
  );

export const statPath = (path: string) => apiRequest(`${fs('get')}?${query({ path })}`, { schema: fsEntrySchema, fileRoute: true });

export const makeFolder = (path: string) => apiRequest(fs('mkdir'), { method: 'POST', body: { path }, schema: v.unknown(), fileRoute: true });

export const renamePath = (oldPath: string, newPath: string) =>
  apiRequest(fs('rename'), { method: 'POST', body: { oldPath, newPath }, schema: v.unknown(), fileRoute: true });

export const removePaths = (paths: string[]) =>
  apiRequest(fs('batch-remove'), { method: 'POST', body: { paths }, schema: fsBatchResultSchema, fileRoute: true });

export const saveTextFile = (path: string, content: string) =>
  apiRequest(fs('update'), { method: 'POST', body: { path, content }, schema: v.unknown(), fileRoute: true });

/** Signed thumbnail URLs (relative to the API's origin) of the paths that have one; at most 200 paths a call. */
export const thumbnailLinks = (paths: string[]) =>
  apiRequest(fs('thumbnail-links'), { method: 'POST', body: { paths }, schema: fsThumbnailLinksSchema, fileRoute: true });

/** A URL that works without credentials until it expires: for previews, downloads and sharing. */
export const fileLink = (path: string, options: { expiresIn?: number; forceDownload?: boolean } = {}) =>
  apiRequest(
    `${fs('file-link')}?${query({
      path,
      expires_in: String(options.expiresIn ?? FS_LINK_SECONDS),
      force_download: options.forceDownload ? 'true' : 'false',
    })}`,
    { schema: fsLinkSchema, fileRoute: true },
  );
