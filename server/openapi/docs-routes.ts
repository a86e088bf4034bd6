import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { notFound } from '../errors';
import type { HonoRoute } from './routes';
import { APP_ROOT } from '../app-root';

const PAGE_DIR = join(APP_ROOT, 'server/openapi/page');
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The reference page's files: Swagger UI's from its package, ours beside the page. Nothing else is served. */
const ASSETS: Record<string, { path: string; type: string }> = {
  'swagger-ui.css': { path: join(SWAGGER_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { path: join(SWAGGER_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  'docs.css': { path: join(PAGE_DIR, 'docs.css'), type: 'text/css; charset=utf-8' },
  'theme.js': { path: join(PAGE_DIR, 'theme.js'), type: 'text/javascript; charset=utf-8' },
  'init.js': { path: join(PAGE_DIR, 'init.js'), type: 'text/javascript; charset=utf-8' },
};

/**
 * Scripts only as files from this origin, so the page works under the app's strict CSP. Swagger UI sets style
 * attributes while it renders; the document and "Try it out" requests go to this server only.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET /api/openapi.json`, the OpenAPI document of this app's routes, and `GET /api/docs`, an interactive reference
 * for it (Swagger UI, served from here: no CDN, works offline). The document is built on its first request, when
 * every route is registered (this sub-app is mounted before the app is complete), then kept: routes never change.
 */
export function apiDocsRoutes(allRoutes: () => readonly HonoRoute[]) {
  const app = new Hono<AppEnv>();
  let document: string | undefined;
  const files = new Map<string, Promise<Buffer>>();
  const read = (path: string) => {
    let file = files.get(path);
    if (!file) {
      file = readFile(path);
      files.set(path, file);
      file.catch(() => files.delete(path));
    }
    return file;
  };

  app.get('/openapi.json', async (c) => {
    // The catalog and the schema converter load with the first request: start-up does not need them.
    const { buildOpenApi } = await import('./document');
    document ??= JSON.stringify(buildOpenApi(allRoutes()).document);
    return c.body(document, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  app.get('/docs', async (c) =>
    c.body(new Uint8Array(await read(join(PAGE_DIR, 'index.html'))), 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PAGE_CSP,
      'Cache-Control': 'no-cache',
    }),
  );

  app.get('/docs/:file', async (c) => {
    const asset = ASSETS[c.req.param('file')];
    if (!asset) throw notFound();
    return c.body(new Uint8Array(await read(asset.path)), 200, {
      'Content-Type': asset.type,
      'Cache-Control': 'public, max-age=3600',
    });
  });

  return app;
}
