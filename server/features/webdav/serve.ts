import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import type { AppDeps, AppEnv } from '../../context';
import { creatorOf } from '../../context';
import { ApiError } from '../../errors';
import { callerOf } from '../fs/resolve';
import { clientAddress, publicBaseUrl, requestBody } from '../../http';
import type { LoginRateLimiter } from '../auth/login-rate-limit';
import { DavAuthenticator } from './auth';
import { parsedIf } from './conditions';
import type { DavRequest } from './context';
import { copyOrMove } from './copy-move';
import { DavError } from './errors';
import { lock, unlock } from './lock-methods';
import { propfind, proppatch } from './props';
import { put } from './put';
import { pathOfUrlPath } from './request';
import { getFile, mkcol, remove } from './resource-methods';
import { errorBody } from './xml';
import { requestLogger } from '../../observability/request-log';

const METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPFIND', 'PROPPATCH', 'LOCK', 'UNLOCK'];

const handlers: Record<string, (request: DavRequest) => Promise<Response>> = {
  GET: getFile,
  HEAD: getFile,
  PUT: put,
  DELETE: remove,
  MKCOL: mkcol,
  COPY: (request) => copyOrMove(request, 'copy'),
  MOVE: (request) => copyOrMove(request, 'move'),
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  LOCK: lock,
  UNLOCK: unlock,
};

/** `OPTIONS` needs no credentials: Windows asks it first to learn that this is WebDAV at all. */
const options = () =>
  new Response(null, { status: 200, headers: { DAV: '1, 2', Allow: METHODS.join(', '), 'MS-Author-Via': 'DAV', 'Content-Length': '0' } });

/** An ApiError of the file system layer as the WebDAV status RFC 4918 gives the same failure. */
function statusOf(error: ApiError): StatusCode {
  if (error.messageKey === 'quota_exceeded') return 507;
  if (error.messageKey === 'fs_virtual_read_only' || error.messageKey === 'fs_mount_root') return 403;
  return error.status;
}

/**
 * The request target as the client sent it: a `#` there (a fragment, which clients must not send) would be cut off
 * by the URL parser, and the request would act on another resource than the client named.
 */
const sentTarget = (c: Context<AppEnv>) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.url ?? '';

function failure(c: Context<AppEnv>, error: unknown): Response {
  if (error instanceof DavError) {
    const headers: Record<string, string> = error.status === 401 ? { 'WWW-Authenticate': 'Basic realm="Clipstash", charset="UTF-8"' } : {};
    if (!error.condition) return new Response(null, { status: error.status, headers });
    return new Response(errorBody(error.condition), { status: error.status, headers: { ...headers, 'Content-Type': 'application/xml; charset=utf-8' } });
  }
  if (error instanceof ApiError) return new Response(null, { status: statusOf(error) });
  // A client that went away mid-request (a stopped PUT) is not a fault of ours; what it sent was cleaned up.
  if (c.req.raw.signal.aborted) return new Response(null, { status: 400 });
  requestLogger(c).error({ err: error }, `WebDAV ${c.req.method} failed`);
  return new Response(null, { status: 500 });
}

/**
 * The WebDAV request handler (class 1 and 2) over the mount file system: every path goes through server/fs, as the fs
 * API's do, so permissions, base paths, limits and cache invalidation are the same. Answers are XML or bodies, never
 * the JSON envelope.
 */
export function davHandler(deps: AppDeps, limiter: LoginRateLimiter) {
  const authenticator = new DavAuthenticator(deps, limiter);
  return async (c: Context<AppEnv>): Promise<Response> => {
    try {
      const method = c.req.method.toUpperCase();
      if (method === 'OPTIONS') return options();
      const handle = handlers[method];
      if (!handle) return new Response(null, { status: 405, headers: { Allow: METHODS.join(', ') } });
      if (sentTarget(c).includes('#')) throw new DavError(400);
      const principal = await authenticator.principalOf(c.req.header('authorization'), clientAddress(c, deps));
      const raw = c.req.raw;
      return await handle({
        deps,
        caller: callerOf(principal),
        creator: creatorOf(principal),
        path: pathOfUrlPath(new URL(raw.url).pathname),
        raw,
        bodyStream: () => requestBody(c),
        baseUrl: publicBaseUrl(c, deps),
        ...parsedIf(raw),
      });
    } catch (error) {
      return failure(c, error);
    }
  };
}
