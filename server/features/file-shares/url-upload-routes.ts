import { Hono, type Context } from 'hono';
import { commitRequestSchema } from '../../../contract/files';
import { urlCancelRequestSchema, urlInfoRequestSchema, urlPresignRequestSchema, urlProxyQuerySchema } from '../../../contract/url-upload';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok, publicBaseUrl, queryParams } from '../../http';
import { requirePermission } from '../auth/middleware';
import { commitUpload, presignUpload } from './pending-uploads';
import { cancelPendingUpload } from './multipart';
import { proxyUrl, urlInfo } from './url-uploads';
import { multipartRoutes } from './multipart-routes';

/**
 * The origin the browser runs the app on, for the CORS check of `url/info`: the request's own `Origin` (the
 * worker's calls carry it), else the origin this server is reached at.
 */
function appOrigin(c: Context<AppEnv>, deps: AppDeps): string {
  const origin = c.req.header('origin');
  if (origin) {
    try {
      const parsed = new URL(origin);
      if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === origin) return origin;
    } catch {
      // Not an origin: fall back.
    }
  }
  return new URL(publicBaseUrl(c, deps)).origin;
}

/**
 * URL uploads (`/url/*`): what a web address serves (`info`), its bytes through the server when CORS keeps the
 * browser out (`proxy`), then the same flows as local files: `presign` + PUT + `commit` for small files,
 * `multipart/*` for large ones, `cancel` to drop a pending upload. Every server-side fetch goes through the SSRF
 * guard (server/net/safe-fetch.ts).
 */
export function urlUploadRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requirePermission('file'));

  app.post('/info', jsonBody(urlInfoRequestSchema), async (c) =>
    ok(c, await urlInfo(deps, c.req.valid('json').url, appOrigin(c, deps))),
  );

  app.get('/proxy', queryParams(urlProxyQuerySchema), async (c) => proxyUrl(deps, c.req.valid('query').url));

  app.post('/presign', jsonBody(urlPresignRequestSchema), async (c) => {
    const { url, ...input } = c.req.valid('json');
    return ok(c, await presignUpload(deps, c.get('principal'), input, publicBaseUrl(c, deps), url), 'upload_url_created');
  });

  app.post('/commit', jsonBody(commitRequestSchema), async (c) => {
    const { share, created } = await commitUpload(deps, c.get('principal'), c.req.valid('json'));
    return ok(c, share, 'file_uploaded', created ? 201 : 200);
  });

  app.post('/cancel', jsonBody(urlCancelRequestSchema), async (c) => {
    await cancelPendingUpload(deps, c.get('principal'), c.req.valid('json').file_id);
    return ok(c, null, 'upload_cancelled');
  });

  app.route('/multipart', multipartRoutes(deps, 'url'));
  return app;
}
