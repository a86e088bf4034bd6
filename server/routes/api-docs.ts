import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { buildOpenApi } from '../openapi/document';
import type { HonoRoute } from '../openapi/routes';

/**
 * `GET /api/openapi.json`: the OpenAPI document of this app's routes. Built on the first request, when every route
 * is registered (the app is composed after this sub-app is mounted), then kept: routes never change at run time.
 */
export function apiDocsRoutes(allRoutes: () => readonly HonoRoute[]) {
  const app = new Hono<AppEnv>();
  let document: string | undefined;

  app.get('/openapi.json', (c) => {
    document ??= JSON.stringify(buildOpenApi(allRoutes()).document);
    return c.body(document, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  return app;
}
