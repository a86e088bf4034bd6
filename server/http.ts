import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import { validator } from 'hono/validator';
import * as v from 'valibot';
import type { Envelope } from '../contract/envelope';
import { SHARE_PEEK_EXPOSED, sharePeekHeaders, type SharePeek } from '../contract/share-peek';
import type { AppDeps, AppEnv } from './context';
import { badInput } from './errors';
import { translate, type MessageKey, type MessageParams } from './i18n/messages';
import { withInput } from './openapi/annotations';

type SuccessStatus = 200 | 201 | 202;

/** A success envelope, its message in the caller's language. */
function envelope<T>(c: Context<AppEnv>, data: T, messageKey: MessageKey, status: SuccessStatus, params: MessageParams): Envelope<T> {
  return { code: status, message: translate(messageKey, c.get('lang'), params), data, success: true };
}

/** A success envelope as the answer. */
export function ok<T>(
  c: Context<AppEnv>,
  data: T,
  messageKey: MessageKey = 'ok',
  status: SuccessStatus = 200,
  params: MessageParams = {},
) {
  return c.json(envelope(c, data, messageKey, status, params), status);
}

/**
 * A share's success envelope with its peek headers (contract/share-peek.ts), given with the answer as one plain
 * object, as `c.json` gives its Content-Type: undici's `Headers` takes them in one go when a middleware first reads
 * them, where setting them one by one afterwards validated and looked up each again. Nothing on a share's route
 * sets headers with `c.header()` before it, which this answer would not carry.
 */
export function okWithPeek<T>(c: Context<AppEnv>, data: T, peek: SharePeek): Response {
  return new Response(JSON.stringify(envelope(c, data, 'ok', 200, {})), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...sharePeekHeaders(peek) },
  });
}

/**
 * Adds a share's peek headers to an answer made elsewhere (a file's stream); where the answer lets other origins
 * read it, they may read these too.
 */
export function withPeek(response: Response, peek: SharePeek): Response {
  for (const [name, value] of Object.entries(sharePeekHeaders(peek))) response.headers.set(name, value);
  const exposed = response.headers.get('Access-Control-Expose-Headers');
  if (exposed) response.headers.set('Access-Control-Expose-Headers', `${exposed}, ${SHARE_PEEK_EXPOSED}`);
  return response;
}

function firstIssue(issues: readonly v.BaseIssue<unknown>[]) {
  const issue = issues[0];
  const field = (issue && v.getDotPath(issue)) || 'body';
  return badInput(field, issue?.message ?? 'invalid');
}

/** Parses a part of the request with a contract schema; a failure is a 400 naming the field. */
export function parseInput<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (!result.success) throw firstIssue(result.issues);
  return result.output as v.InferOutput<S>;
}

/** Validates the JSON body with a contract schema. The schema rides on the middleware for the API document. */
export const jsonBody = <S extends v.GenericSchema>(schema: S) =>
  withInput(
    validator('json', (value) => parseInput(schema, value)),
    { target: 'json', schema },
  );

/** Validates the query string the same way. */
export const queryParams = <S extends v.GenericSchema>(schema: S) =>
  withInput(
    validator('query', (value) => parseInput(schema, value)),
    { target: 'query', schema },
  );

/**
 * The origin clients reach this server at, for URLs we hand out (signed links, LOCAL upload URLs):
 * `PUBLIC_URL` when configured, else the request's own origin (honouring `X-Forwarded-Proto` from a proxy).
 */
export function publicBaseUrl(c: Context<AppEnv>, deps: AppDeps): string {
  if (deps.config.publicUrl) return deps.config.publicUrl;
  const url = new URL(c.req.url);
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const protocol = forwarded === 'https' || forwarded === 'http' ? `${forwarded}:` : url.protocol;
  return `${protocol}//${url.host}`;
}

/**
 * The address the request came from, for per-client limits. With TRUST_PROXY the last X-Forwarded-For entry (the
 * one our proxy added; earlier ones are the client's own say and can be forged), else the socket's peer.
 */
export function clientAddress(c: Context<AppEnv>, deps: AppDeps): string {
  if (deps.config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/** Who made the request, for a share's access log: the address as `clientAddress` finds it, and the User-Agent. */
export function visitorOf(c: Context<AppEnv>, deps: AppDeps): { address: string; userAgent: string } {
  return { address: clientAddress(c, deps), userAgent: c.req.header('user-agent') ?? '' };
}

/**
 * The request's body as a Node stream; undefined when it has none. Served by Node, it is read from Node's request
 * itself: the body Hono hands out is those bytes made a web stream, which `Readable.fromWeb` makes a Node stream
 * again, about 8 % of the server's CPU for an upload through the parts route (bench/README.md, drivers). The caller
 * gets a stream of its own: destroying Node's request would reset the connection before a refusal (413) is sent,
 * and what the caller leaves unread is drained by Hono's Node adapter after the answer. Answered in process
 * (`app.request`), the web body.
 */
export function requestBody(c: Context<AppEnv>): Readable | undefined {
  const incoming: unknown = (c.env as { incoming?: unknown } | undefined)?.incoming;
  // Once Hono has made its web stream, that stream reads Node's request (it listens for its data) and is the only
  // way to the bytes: the API's JSON size check reads a JSON-typed body first, CloudPaste's face serves the request
  // again with that stream as the body.
  if (incoming instanceof Readable && incoming.listenerCount('data') === 0 && !incoming.readableDidRead) {
    const body = new PassThrough();
    incoming.on('error', (error) => body.destroy(error));
    return incoming.pipe(body);
  }
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : undefined;
}
