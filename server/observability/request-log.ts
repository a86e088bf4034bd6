import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../context';
import { withDefaultHeaders } from '../middleware/default-headers';
import { logRequest, type Logger } from './log';
import type { HttpMetrics } from './metrics';

/** An incoming id is kept only when it is a short plain token, so that a client cannot forge log structure with it. */
const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Outermost middleware: gives the request an id (the caller's valid `X-Request-Id`, else a new one), answers it in
 * `X-Request-Id`, and writes one line when the answer is ready: method, route pattern (never the path, which may hold
 * a share's slug, nor the query, which may hold a signature), status and milliseconds to the answer's headers.
 * `metrics` (when /metrics is on) counts it too. What else a request logs goes through `requestLogger(c)`, which
 * stamps the same id.
 */
export function requestLog(logger: Logger, metrics: HttpMetrics | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming !== undefined && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('log', logger);
    c.set('requestId', requestId);
    await withDefaultHeaders(c, next, { 'X-Request-Id': requestId });
    const { res } = c;
    // After next() the route index is the handler's that answered, not this middleware's.
    const route = routePath(c);
    const seconds = (performance.now() - started) / 1000;
    metrics?.observe(c.req.method, route, res.status, seconds);
    logRequest(logger, { reqId: requestId, method: c.req.method, route, status: res.status, ms: Math.round(seconds * 10_000) / 10 });
  };
}

/** The request's logger: every line it writes carries the request's `reqId`. Made when needed (a failure), not per request. */
export const requestLogger = (c: Context<AppEnv>): Logger => c.get('log').child({ reqId: c.get('requestId') });
