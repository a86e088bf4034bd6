import type { MiddlewareHandler } from 'hono';
import { SHARE_PEEK_EXPOSED } from '../../contract/share-peek';
import type { AppEnv } from '../context';
import { ApiError } from '../errors';
import { LOCAL_STORAGE_PREFIX } from '../storage/local-urls';
import { EXPOSED_HEADERS } from '../storage/serve-object';
import { mergedList, withDefaultHeaders } from './default-headers';

export const CORS_ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
/** What the app's client sends (src/lib/api/client.ts, workers/transport/): its credentials, JSON, language, ranges. */
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Accept-Language, Range';
/** What a client must read: file names, sizes and ranges, ETags, and a share's peek (contract/share-peek.ts). */
export const CORS_EXPOSED_HEADERS = `${EXPOSED_HEADERS}, ${SHARE_PEEK_EXPOSED}`;
/** Browsers keep a preflight's answer this long (seconds), so a burst of calls costs one. */
const PREFLIGHT_MAX_AGE = '600';
const VARY_ORIGIN = { Vary: 'Origin' };

/**
 * CORS for a frontend served from another origin (CloudPaste's frontend reads its backend URL from a runtime config),
 * on `/api/*`: only the origins of `CORS_ORIGINS` (server/config.ts), none by default.
 * - A listed origin's preflight is answered 204 with the methods and headers the client uses; its other requests
 *   go through, and their answers (errors too) name the origin, allow credentials and expose the headers a client
 *   reads. Never `*` with credentials: the answer names the one origin that asked.
 * - Any other origin gets no CORS headers, so its browser keeps the answer from it; its preflight is refused with
 *   a 403 in the envelope. Same-origin requests (which send no preflight) are not affected.
 * - `Vary: Origin` on every answer, so that no cache hands one origin's answer to another.
 * The LOCAL storage's signed URLs keep their own policy (any origin, no credentials: the signature is the only one;
 * server/features/storages/local-url-routes.ts). Security headers and `no-store` are added afterwards as for any answer.
 */
export function cors(allowedOrigins: readonly string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const ownPolicy = c.req.path.startsWith(`${LOCAL_STORAGE_PREFIX}/`);
    const listed = origin !== undefined && allowed.has(origin) && !ownPolicy;
    const preflight = c.req.method === 'OPTIONS' && origin !== undefined && c.req.header('access-control-request-method') !== undefined;
    if (preflight && !ownPolicy) {
      if (!listed) {
        c.header('Vary', 'Origin'); // the envelope's answer is made from the context by onError
        throw new ApiError(403, 'cors_origin_not_allowed', { origin });
      }
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
        'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
        'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
        Vary: 'Origin',
      });
    }
    await withDefaultHeaders(c, next, VARY_ORIGIN);
    if (!listed) return;
    const headers = c.res.headers;
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Allow-Credentials', 'true');
    headers.set('Access-Control-Expose-Headers', mergedList(headers.get('Access-Control-Expose-Headers'), CORS_EXPOSED_HEADERS));
  };
}
