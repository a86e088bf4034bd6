import { Hono, type Context } from 'hono';
import { verifyFileRequestSchema } from '../../../contract/files';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, okWithPeek, publicBaseUrl, visitorOf, withPeek } from '../../http';
import { keepUncompressed } from '../../middleware/compression';
import { authorizeFileStream, filePeekOf, isFileOwner, openFileInfo, storageOf } from './access';
import { driverFor } from '../../storage/registry';
import { serveObject } from '../../storage/serve-object';
import { actorOf, watchedDownload } from '../transfers/hooks';
import { streamAccessLog } from '../access-log/downloads';

const isHead = (c: Context<AppEnv>) => c.req.method === 'HEAD';

/**
 * What visitors reach: the share info (`/public/files/{slug}`, `…/verify`) and the bytes, inline
 * (`/file-view/{slug}`) or as a download (`/file-download/{slug}`), both streamed with Range support.
 */
export function fileShareRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // Share answers hand out view/download links with tokens: never compressed.
  app.use('/public/files/*', keepUncompressed);

  // Hono answers HEAD with the GET handler: a HEAD is a peek and must not spend a view. Its headers tell what the
  // share page shows before the visitor opens the file.
  app.get('/public/files/:slug', async (c) => {
    const access = { via: 'info', peek: isHead(c), visitor: visitorOf(c, deps) } as const;
    const file = await openFileInfo(deps, c.get('principal'), c.req.param('slug'), access, publicBaseUrl(c, deps));
    return okWithPeek(c, file, filePeekOf(file));
  });

  app.post('/public/files/:slug/verify', jsonBody(verifyFileRequestSchema), async (c) => {
    const file = await openFileInfo(
      deps,
      c.get('principal'),
      c.req.param('slug'),
      { via: 'verify', password: c.req.valid('json').password },
      publicBaseUrl(c, deps),
    );
    return okWithPeek(c, file, filePeekOf(file));
  });

  for (const [path, disposition] of [
    ['/file-view/:slug', 'inline'],
    ['/file-download/:slug', 'attachment'],
  ] as const) {
    app.get(path, async (c) => {
      const row = await authorizeFileStream(deps, c.get('principal'), c.req.param('slug'), {
        token: c.req.query('token'),
        password: c.req.query('password'),
        peek: isHead(c),
      });
      // The owner's own reads stay out of the share's access log.
      const visitor = isFileOwner(c.get('principal'), row) ? undefined : visitorOf(c, deps);
      const log = streamAccessLog(deps, row.id, visitor, isHead(c));
      const watched = watchedDownload(deps, 'download', actorOf(c.get('principal')), row.filename);
      const response = await serveObject(c.req.raw, {
        driver: driverFor(deps, await storageOf(deps, row)),
        key: row.storage_path,
        size: row.size,
        etag: row.etag,
        contentType: row.mimetype,
        disposition,
        filename: row.filename,
        relay: (body, length) => log.relay(watched(body, length)),
      });
      log.answered(response);
      // Whoever gets here may read the bytes: no password is left to give.
      return withPeek(
        response,
        filePeekOf({
          maxViews: row.max_views,
          views: row.views,
          size: row.size,
          mimetype: row.mimetype,
          expiresAt: row.expires_at,
          requires_password: false,
        }),
      );
    });
  }

  return app;
}
