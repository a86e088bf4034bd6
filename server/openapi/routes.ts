import type { RouteKey } from './catalog/types';

/** One entry of Hono's `app.routes`: middlewares and handlers alike, in registration order. */
export interface HonoRoute {
  method: string;
  path: string;
  handler: unknown;
}

export interface ApiEndpoint {
  key: RouteKey;
  method: string;
  path: string;
  /** Every function that runs for it: `app.use` middlewares of enclosing paths, then its own. */
  handlers: unknown[];
}

/** A registration covers a path when it names it, or ends in `/*` over it (Hono's `/x/*` also matches `/x`). */
function covers(pattern: string, path: string): boolean {
  if (pattern === path) return true;
  if (!pattern.endsWith('/*')) return false;
  const base = pattern.slice(0, -2);
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The API's endpoints: each method and path under `/api/` that a handler answers (`ALL` entries are middlewares
 * or the 404 fallback, not endpoints), with the functions that run for it.
 */
export function apiEndpoints(routes: readonly HonoRoute[]): ApiEndpoint[] {
  const endpoints = new Map<RouteKey, ApiEndpoint>();
  for (const { method, path } of routes) {
    if (method === 'ALL' || !path.startsWith('/api/')) continue;
    const key = `${method} ${path}` as RouteKey;
    if (endpoints.has(key)) continue;
    const handlers = routes
      .filter((route) => (route.method === method || route.method === 'ALL') && covers(route.path, path))
      .map((route) => route.handler);
    endpoints.set(key, { key, method, path, handlers });
  }
  return [...endpoints.values()];
}

/** The name the trailing `*` of a route gets as a path parameter. */
export const WILDCARD = 'path';

/** Hono's `/a/:id/*` as an OpenAPI path `/a/{id}/{path}`. */
export const openApiPath = (path: string): string =>
  path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, `/{${WILDCARD}}`);
