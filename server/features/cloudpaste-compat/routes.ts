import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context';
import { languageFrom } from '../../i18n/messages';
import { inSentNames, isCloudPasteEdit, rewriteEdit, type RewrittenEdit } from './edits';
import { cloudPasteShapeOf, reshapeAnswer } from './shapes';

/** Where CloudPaste's face is served: its frontend and scripts take `<origin>/compat/cloudpaste` as their backend. */
export const CLOUDPASTE_PREFIX = '/compat/cloudpaste';

/** The whole app's own `fetch`: the compat face hands each request to it under `/api`. */
export type ServeApi = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * An edit body larger than this goes on unread, for `/api` to refuse: no edit is near it (a paste's content, the
 * largest, is at most 10 MB), and `/api`'s own limit on JSON bodies is 11 MB.
 */
const EDIT_BODY_MAX_BYTES = 11 * 1024 * 1024;

/**
 * `/compat/cloudpaste/api/…` is `/api/…` served again through the same middlewares (CORS, login, limits) and
 * handlers, not a copy of them. Edits CloudPaste sends in its own names are put in `/api`'s first (edits.ts), and
 * answers whose shape differs in CloudPaste are reshaped (shapes.ts).
 */
export function cloudpasteCompatRoutes(deps: AppDeps, serveApi: ServeApi) {
  const app = new Hono<AppEnv>();
  app.all('/api/*', async (c) => {
    const url = new URL(c.req.url);
    url.pathname = url.pathname.slice(CLOUDPASTE_PREFIX.length);
    const shape = cloudPasteShapeOf(c.req.method, url.pathname);
    const headers = new Headers(c.req.raw.headers);
    // The request served again is the same request: its lines and answer carry the same id.
    headers.set('x-request-id', c.get('requestId'));
    const { method, signal } = c.req.raw;
    let body: BodyInit | null = c.req.raw.body;
    let edit: RewrittenEdit | undefined;
    if (body && isCloudPasteEdit(method, url.pathname)) {
      const sent = await readAtMost(body, EDIT_BODY_MAX_BYTES);
      if (typeof sent === 'string') {
        edit = await rewriteEdit(deps, method, url.pathname, sent);
        if (edit) url.pathname = edit.path;
        body = edit ? JSON.stringify(edit.body) : sent;
        headers.delete('content-length');
      } else {
        body = sent;
      }
    }
    // A reshaped or renamed answer is read here, so it must come uncompressed.
    if (shape || edit) headers.delete('accept-encoding');
    const request = new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit);
    const answer = await serveApi(request, c.env);
    if (!answer.headers.get('content-type')?.includes('application/json')) return answer;
    if (edit && !answer.ok) return withBody(answer, inSentNames(await answer.json(), edit.sentAs, languageFrom(c.req.header('accept-language'))));
    if (shape) return withBody(answer, reshapeAnswer(shape, await answer.json()));
    return answer;
  });
  return app;
}

/**
 * The body as text when it ends within `max` bytes; else the whole body still to be read (what was read, then the
 * rest), to go on as it came.
 */
async function readAtMost(body: ReadableStream<Uint8Array>, max: number): Promise<string | ReadableStream<Uint8Array>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks).toString('utf8');
    chunks.push(value);
    size += value.length;
    if (size > max) break;
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** `answer` with `json` as its body, its status and headers kept. */
function withBody(answer: Response, json: unknown): Response {
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(json), { status: answer.status, headers });
}
