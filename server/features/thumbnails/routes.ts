import { Hono, type Context } from 'hono';
import {
  fileThumbnailQuerySchema,
  fsThumbnailLinksRequestSchema,
  fsThumbnailQuerySchema,
  hasThumbnail,
  signedThumbnailQuerySchema,
  type FsThumbnailLinks,
  type ThumbnailSize,
} from '../../../contract/thumbnails';
import { mimeTypeOf } from '../../../contract/mime';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError } from '../../errors';
import { jsonBody, ok, parseInput } from '../../http';
import { driverFor } from '../../storage/registry';
import { requireAdmin, requirePermission } from '../auth/middleware';
import { authorizeFileThumbnail, storageOf } from '../file-shares/access';
import { nameOf } from '../fs/paths';
import { callerOf, resolveInMount, type MountTarget } from '../fs/resolve';
import { targetOfLink, thumbnailLinks } from './links';
import { onStorage } from '../fs/storage-errors';
import { thumbnailEtagOf, thumbnailOf, type ThumbnailSource } from './thumbnails';

/** A URL that names the source's version (`v`) never shows another: the browser keeps it for good. */
const KEEP = 'private, max-age=31536000, immutable';
/** Otherwise the browser asks again each time, and the ETag makes that a 304. */
const ASK_AGAIN = 'private, no-cache';
/** How long a caller turned away by the full line of makings waits before asking again. */
const BUSY_RETRY_SECONDS = 2;

async function answer(c: Context<AppEnv>, source: ThumbnailSource, size: ThumbnailSize, cacheControl: string): Promise<Response> {
  const headers = new Headers({ 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' });
  const etag = `"${thumbnailEtagOf(source, size)}"`;
  headers.set('ETag', etag);
  const known = c.req.header('if-none-match');
  if (known?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return new Response(null, { status: 304, headers });
  const thumbnail = await thumbnailOf(source, size, c.req.raw.signal).catch((error: unknown) => {
    // Turned away by a full line: the grid asks again, no sooner than this (src/pages/mount-explorer/thumbnail-links.ts).
    if (error instanceof ApiError && error.status === 429) c.header('Retry-After', String(BUSY_RETRY_SECONDS));
    throw error;
  });
  headers.set('Content-Type', 'image/webp');
  headers.set('Content-Length', String(thumbnail.bytes.length));
  return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(thumbnail.bytes), { status: 200, headers });
}

/** A mount file as a thumbnail's source; 404 for a folder or nothing. */
async function sourceOf(target: MountTarget): Promise<ThumbnailSource> {
  const object = target.inner.length > 0 ? await onStorage(target.path.text, () => target.driver.stat(target.key)) : undefined;
  if (!object) throw new ApiError(404, 'fs_not_a_file', { path: target.path.text });
  return {
    storageId: target.config.id,
    driver: target.driver,
    key: target.key,
    size: object.size,
    etag: object.etag,
    modified: object.modified,
    mimetype: mimeTypeOf(nameOf(target.path)),
  };
}

/**
 * `GET /{admin,user}/fs/thumbnail?path=&size=`: the access of `fs/download` (the caller's mounts, a key's base
 * path), and no download is counted. `POST …/thumbnail-links`: signed URLs of the same, for the browser's `<img>`.
 */
export function fsThumbnailRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  app.use('/thumbnail*', kind === 'admin' ? requireAdmin : requirePermission('mount'));
  app.get('/thumbnail', async (c) => {
    // Parsed here rather than by a validator, as `download` does: a repeated `path` is read as its first value.
    const query = parseInput(fsThumbnailQuerySchema, c.req.query());
    const target = await resolveInMount(deps, callerOf(c.get('principal')), query.path);
    return answer(c, await sourceOf(target), query.size, query.v === undefined ? ASK_AGAIN : KEEP);
  });
  app.post('/thumbnail-links', jsonBody(fsThumbnailLinksRequestSchema), async (c) => {
    const caller = callerOf(c.get('principal'));
    const links: FsThumbnailLinks['links'] = [];
    for (const path of c.req.valid('json').paths) {
      if (!hasThumbnail(mimeTypeOf(nameOf(path)))) continue;
      const target = await resolveInMount(deps, caller, path).catch(() => undefined);
      if (target && target.inner.length > 0) links.push({ path: path.text, ...thumbnailLinks(deps, target) });
    }
    return ok(c, { links });
  });
  return app;
}

/** `GET /fs-thumbnail?…&sig=`: a thumbnail through a link `thumbnail-links` signed; `v` makes it cacheable for good. */
export function signedThumbnailRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/fs-thumbnail', async (c) => {
    const query = parseInput(signedThumbnailQuerySchema, c.req.query());
    const target = await targetOfLink(deps, query);
    return answer(c, await sourceOf(target), query.size, query.v === undefined ? ASK_AGAIN : KEEP);
  });
  return app;
}

/** `GET /file-thumbnail/{slug}?size=&token=|password=`: a file share's thumbnail; it counts no view. */
export function fileShareThumbnailRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/file-thumbnail/:slug', async (c) => {
    const query = parseInput(fileThumbnailQuerySchema, c.req.query());
    const row = await authorizeFileThumbnail(deps, c.get('principal'), c.req.param('slug'), query);
    const config = await storageOf(deps, row);
    const source = {
      storageId: config.id,
      driver: driverFor(deps, config),
      key: row.storage_path,
      size: row.size,
      etag: row.etag,
      modified: null,
      mimetype: row.mimetype,
    };
    return answer(c, source, query.size, ASK_AGAIN);
  });
  return app;
}
