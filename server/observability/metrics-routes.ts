import { Hono, type Handler } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../errors';
import { constantTimeEqual } from '../security/tokens';
import { metricsOf, type AppMetrics } from './metrics';

/** The metrics in Prometheus' text format; with `token`, only to a request bearing it (compared in constant time). */
function exposition(metrics: AppMetrics, token: string | undefined): Handler<AppEnv> {
  return async (c) => {
    if (token !== undefined) {
      const [scheme, given] = (c.req.header('authorization') ?? '').split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !given || !constantTimeEqual(given, token)) throw new ApiError(401, 'metrics_token_required');
    }
    return c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType });
  };
}

/**
 * `GET /metrics` on the app's own port: behind METRICS_TOKEN, and 404 without one (also when only METRICS_PORT is
 * set), so that the metrics are never public by accident. Before the SPA, whose fallback would answer a page.
 */
export function metricsRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const token = deps.config.metricsToken;
  app.get(
    '/metrics',
    token === undefined
      ? () => {
          throw new ApiError(404, 'not_found');
        }
      : exposition(metricsOf(deps), token),
  );
  return app;
}

/** METRICS_PORT's whole app: `/metrics` without a token (the port is for a private network), nothing else. */
export function metricsPortApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/metrics', exposition(metricsOf(deps), undefined));
  return app;
}
