import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { cloudPasteShapeOf, reshapeAnswer } from './shapes';

/** Where CloudPaste's face is served: its frontend and scripts take `<origin>/compat/cloudpaste` as their backend. */
export const CLOUDPASTE_PREFIX = '/compat/cloudpaste';

/** The whole app's own `fetch`: the compat face hands each request to it under `/api`. */
export type ServeApi = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * `/compat/cloudpaste/api/…` is `/api/…` served again through the same middlewares (CORS, login, limits) and
 * handlers, not a copy of them; answers whose shape differs in CloudPaste are reshaped (shapes.ts).
 */
export function cloudpasteCompatRoutes(serveApi: ServeApi) {
  const app = new Hono<AppEnv>();
  app.all('/api/*', async (c) => {
    const url = new URL(c.req.url);
    url.pathname = url.pathname.slice(CLOUDPASTE_PREFIX.length);
    const shape = cloudPasteShapeOf(c.req.method, url.pathname);
    const headers = new Headers(c.req.raw.headers);
    // A reshaped answer is read here, so it must come uncompressed.
    if (shape) headers.delete('accept-encoding');
    const { method, body, signal } = c.req.raw;
    const request = new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit);
    const answer = await serveApi(request, c.env);
    if (!shape || !answer.headers.get('content-type')?.includes('application/json')) return answer;
    const reshaped = reshapeAnswer(shape, await answer.json());
    const answerHeaders = new Headers(answer.headers);
    answerHeaders.delete('content-length');
    return new Response(JSON.stringify(reshaped), { status: answer.status, headers: answerHeaders });
  });
  return app;
}
