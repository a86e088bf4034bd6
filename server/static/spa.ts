import { join } from 'node:path';
import type { Hono, MiddlewareHandler } from 'hono';
import { SHARE_TARGET_PATH, SHARE_TARGET_UNAVAILABLE_PAGE } from '../../contract/share-target';
import type { AppEnv } from '../context';
import { serveFile } from './serve-file';

/** The file under `root` a request path names, or `undefined` for paths that could leave it or are not plain. */
function fileFor(root: string, requestPath: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (/(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\|\0/.test(name) || name.endsWith('/')) return undefined;
  return join(root, name);
}

/** Serves files of the build under `root` (precompressed variants negotiated); other paths go on. */
function serveBuilt(root: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const path = fileFor(root, c.req.path);
    const response = path && (await serveFile(c, path));
    return response || next();
  };
}

/**
 * Hashed assets are cached for a year; index.html and the service workers are always revalidated. A missing asset
 * is a 404, never the app's page: a browser asking for a chunk of another build would otherwise keep HTML under a
 * script's URL for a year. index.html is read on each navigation, so it always names the assets on disk.
 */
export function mountSpa(app: Hono<AppEnv>, root: string) {
  const indexPath = join(root, 'index.html');
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  // A new deploy must reach the browser's service-worker update checks through any cache on the way (the app's
  // worker, and the copy couriers' one: public/courier-sw.js).
  for (const worker of ['/sw.js', '/courier-sw.js']) {
    app.use(worker, async (c, next) => {
      await next();
      if (c.res.ok) c.header('Cache-Control', 'no-cache');
    });
  }
  // The installed app's share target is the service worker's to answer; one that is not yet in control (the first
  // visit) lets the POST through: the editor then asks to share again. The body is not read.
  app.post(SHARE_TARGET_PATH, (c) => c.redirect(SHARE_TARGET_UNAVAILABLE_PAGE, 303));
  app.use('*', serveBuilt(root));
  app.get('/assets/*', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.text('Not found', 404);
  });
  app.get('*', async (c) => {
    const page = await serveFile(c, indexPath);
    if (!page) return c.text('Not found', 404);
    page.headers.set('Cache-Control', 'no-cache');
    page.headers.set('Content-Type', 'text/html; charset=utf-8');
    return page;
  });
}
