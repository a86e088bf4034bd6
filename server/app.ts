import { fileShareThumbnailRoutes, fsThumbnailRoutes, signedThumbnailRoutes } from './features/thumbnails/routes';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import type { Envelope, ErrorData } from '../contract/envelope';
import type { AppDeps, AppEnv } from './context';
import { LOCAL_STORAGE_PREFIX } from './storage/local-urls';
import { ApiError } from './errors';
import { languageFrom, translate } from './i18n/messages';
import { resolvePrincipal } from './features/auth/middleware';
import { LoginRateLimiter } from './features/auth/login-rate-limit';
import { compressJson } from './middleware/compression';
import { cors } from './middleware/cors';
import { securityHeaders } from './middleware/security-headers';
import { log } from './observability/log';
import { metricsEnabled, metricsOf } from './observability/metrics';
import { metricsRoutes } from './observability/metrics-routes';
import { requestLog, requestLogger } from './observability/request-log';
import { mountSpa } from './static/spa';
import { SplitRouter } from './router';
import { apiDocsRoutes } from './openapi/docs-routes';
import { accessLogRoutes } from './features/access-log/routes';
import { apiKeyRoutes } from './features/auth/key-routes';
import { webhookRoutes } from './features/webhooks/routes';
import { authRoutes } from './features/auth/routes';
import { twoFactorRoutes } from './features/two-factor/routes';
import { fileShareRoutes } from './features/file-shares/visitor-routes';
import { fileRoutes } from './features/file-shares/manage-routes';
import { expenseRoutes } from './features/expenses/routes';
import { fileRequestRoutes } from './features/file-requests/routes';
import { jobRoutes, syncScheduleRoutes } from './features/jobs/routes';
import { cacheRoutes, fsRoutes } from './features/fs/routes';
import { localStorageRoutes } from './features/storages/local-url-routes';
import { adminMountRoutes, userMountRoutes } from './features/mounts/routes';
import { multipartRoutes } from './features/file-shares/multipart-routes';
import { pasteRoutes } from './features/pastes/routes';
import { shareSearchRoutes } from './features/search/share-search-routes';
import { storageConfigRoutes } from './features/storages/routes';
import { systemRoutes } from './features/settings/routes';
import { urlUploadRoutes } from './features/file-shares/url-upload-routes';
import { davRoutes } from './features/webdav/routes';
import { transferRoutes } from './features/transfers/routes';
import { fsIndexRoutes, fsSearchRoutes } from './features/search/routes';
import { CLOUDPASTE_PREFIX, cloudpasteCompatRoutes } from './features/cloudpaste-compat/routes';

/** The whole HTTP surface: `/api/*` in the one envelope, CloudPaste's face of it, WebDAV, everything else the SPA. */
export function createApp(deps: AppDeps) {
  // Sub-apps' routes are copied into this one's router: it alone matches requests.
  const app = new Hono<AppEnv>({ router: new SplitRouter() });
  const limiter = new LoginRateLimiter(deps.db, deps.now);

  app.use('*', requestLog(deps.log ?? log, metricsEnabled(deps) ? metricsOf(deps) : undefined));
  app.use('*', securityHeaders(deps.db));
  app.use('/api/*', cors(deps.config.corsOrigins));
  app.use('/api/*', async (c, next) => {
    c.set('lang', languageFrom(c.req.header('accept-language')));
    await next();
  });
  app.use('/api/*', compressJson());
  app.use('/api/*', limitJsonBodies);
  app.use('/api/*', resolvePrincipal(deps));

  const api = new Hono<AppEnv>();
  api.route('/', authRoutes(deps, limiter));
  api.route('/admin/two-factor', twoFactorRoutes(deps, limiter));
  api.route('/', systemRoutes(deps));
  api.route('/admin/api-keys', apiKeyRoutes(deps));
  api.route('/admin/webhooks', webhookRoutes(deps));
  api.route('/', pasteRoutes(deps));
  api.route('/s3-configs', storageConfigRoutes(deps));
  api.route('/', fileRoutes(deps));
  api.route('/s3/multipart', multipartRoutes(deps, 's3'));
  api.route('/url', urlUploadRoutes(deps));
  api.route('/', fileShareRoutes(deps));
  api.route('/', accessLogRoutes(deps));
  api.route('/local-storage', localStorageRoutes(deps));
  api.route('/admin/mounts', adminMountRoutes(deps));
  api.route('/user/mounts', userMountRoutes(deps));
  api.route('/admin/fs/index', fsIndexRoutes(deps));
  api.route('/admin/fs', fsSearchRoutes(deps, 'admin'));
  api.route('/user/fs', fsSearchRoutes(deps, 'user'));
  api.route('/admin/fs', fsThumbnailRoutes(deps, 'admin'));
  api.route('/user/fs', fsThumbnailRoutes(deps, 'user'));
  api.route('/', fileShareThumbnailRoutes(deps));
  api.route('/', signedThumbnailRoutes(deps));
  api.route('/admin/fs', fsRoutes(deps, 'admin'));
  api.route('/user/fs', fsRoutes(deps, 'user'));
  api.route('/admin/cache', cacheRoutes(deps, 'admin'));
  api.route('/', expenseRoutes(deps));
  api.route('/', fileRequestRoutes(deps));
  api.route('/user/cache', cacheRoutes(deps, 'user'));
  api.route('/', transferRoutes(deps));
  api.route('/admin/jobs', jobRoutes(deps, 'admin'));
  api.route('/user/jobs', jobRoutes(deps, 'user'));
  api.route('/admin/sync-schedules', syncScheduleRoutes(deps));
  api.route('/', shareSearchRoutes(deps));
  api.route('/', apiDocsRoutes(() => app.routes));
  app.route('/api', api);

  app.route('/', davRoutes(deps, limiter));
  // CloudPaste's face: the same API again under a prefix, its answers in CloudPaste's shapes.
  app.route(CLOUDPASTE_PREFIX, cloudpasteCompatRoutes(deps, (request, env) => app.fetch(request, env)));
  app.route('/', metricsRoutes(deps));

  app.all('/api/*', () => {
    throw new ApiError(404, 'not_found');
  });

  app.onError((error, c) => {
    const lang = c.get('lang') ?? languageFrom(c.req.header('accept-language'));
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (error instanceof HTTPException && error.status === 400) apiError = new ApiError(400, 'invalid_json', {}, { field: 'body', issue: 'invalid_json' });
    else {
      requestLogger(c).error({ err: error }, `${c.req.method} ${routePath(c)} failed`);
      apiError = new ApiError(500, 'internal');
    }
    const body: Envelope<ErrorData> = {
      code: apiError.status,
      message: translate(apiError.messageKey, lang, apiError.params),
      data: { error: apiError.reason, ...apiError.data },
      success: false,
    };
    return c.json(body, apiError.status);
  });

  if (deps.config.staticDir && existsSync(join(deps.config.staticDir, 'index.html'))) {
    mountSpa(app, deps.config.staticDir);
  }
  return app;
}

/**
 * JSON bodies are parsed whole: cap them just above the largest paste (10 MB). Streams are not JSON, even when
 * a stored file's type says so: LOCAL upload URLs take any body, limited by their signed size.
 */
const MAX_JSON_BODY_BYTES = 11 * 1024 * 1024;
const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: () => {
    throw new ApiError(413, 'body_too_large', { limit: '11 MB' });
  },
});
const limitJsonBodies: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.header('content-type')?.includes('application/json') && !c.req.path.startsWith(`${LOCAL_STORAGE_PREFIX}/`)
    ? jsonBodyLimit(c, next)
    : next();
