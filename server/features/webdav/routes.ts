import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context';
import type { LoginRateLimiter } from '../auth/login-rate-limit';
import { DAV_PREFIX } from './request';
import { requestLogger } from '../../observability/request-log';

type DavHandler = (c: Context<AppEnv>) => Promise<Response>;

/**
 * WebDAV at `/dav` (server/features/webdav/serve.ts). The handler, its XML library and the WebDAV methods load on the first
 * WebDAV request: most servers seldom or never get one, and every start-up would otherwise parse them.
 */
export function davRoutes(deps: AppDeps, limiter: LoginRateLimiter) {
  const app = new Hono<AppEnv>();
  let handler: Promise<DavHandler> | undefined;
  const loaded = () =>
    (handler ??= import('./serve')
      .then(({ davHandler }) => davHandler(deps, limiter))
      .catch((error: unknown) => {
        handler = undefined; // the next request tries again
        throw error;
      }));
  const serve = async (c: Context<AppEnv>) => {
    let handle: DavHandler;
    try {
      handle = await loaded();
    } catch (error) {
      // WebDAV answers never carry the API's JSON envelope: a client gets a bare 503 and may retry.
      requestLogger(c).error({ err: error }, 'WebDAV could not be loaded');
      return new Response(null, { status: 503 });
    }
    return handle(c);
  };
  app.all(DAV_PREFIX, serve);
  app.all(`${DAV_PREFIX}/*`, serve);
  return app;
}
