import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { pickEncoding, type ContentCoding } from '../static/accept-encoding';
import { withDefaultHeaders } from './default-headers';

/** Below this, compression saves less than it costs. */
const THRESHOLD_BYTES = 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

const compressors: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5: most of brotli's gain for a fraction of its top level's time; these are made per request.
  br: (body) => promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/** Statuses whose answers never have a body (Fetch's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Whether an answer is one of the API's own JSON envelopes. File streams (downloads, previews, also under `/api`)
 * carry Content-Disposition and Accept-Ranges and are never touched, whatever type the stored file has: they are
 * sent as stored, byte ranges included. `Cache-Control: no-transform` is the opt-out of answers with a secret.
 * Decided from the status and headers only: reading `res.body` makes @hono/node-server turn its lightweight answer
 * into a web stream it then has to pump, which cost every API answer about a tenth of its time.
 */
function isCompressibleJson(method: string, res: Response): boolean {
  const headers = res.headers;
  return (
    method !== 'HEAD' &&
    res.status !== 206 &&
    !NULL_BODY_STATUSES.has(res.status) &&
    /^application\/json\s*(?:;|$)/i.test(headers.get('Content-Type') ?? '') &&
    !headers.has('Content-Encoding') &&
    !headers.has('Content-Disposition') &&
    !headers.has('Content-Range') &&
    !headers.has('Accept-Ranges') &&
    !NO_TRANSFORM.test(headers.get('Cache-Control') ?? '')
  );
}

/** On every API answer, compressed or not: whether one is compressed depends on the client's Accept-Encoding. */
const VARY_ACCEPT_ENCODING = { Vary: 'Accept-Encoding' };

/**
 * Compresses the API's JSON answers over about 1 KB for clients that accept br or gzip. Mounted on `/api/*` only,
 * so the SPA's files (precompressed at build time) and anything outside the API are never compressed here.
 * Envelopes are built in memory by `c.json`, so buffering them costs nothing new and gives an exact Content-Length.
 * The answer's headers are read only for a client that accepts a coding: reading them makes its web `Headers`.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await withDefaultHeaders(c, next, VARY_ACCEPT_ENCODING);
    const coding = pickEncoding(c.req.header('accept-encoding'), ['br', 'gzip']);
    if (!coding || !isCompressibleJson(c.req.method, c.res) || c.res.body === null) return;
    const plain = Buffer.from(await c.res.arrayBuffer());
    const body = plain.length < THRESHOLD_BYTES ? plain : await compressors[coding](plain);
    // Hono merges the old answer's headers into the new one: Content-Length must be set after.
    c.res = new Response(new Uint8Array(body), c.res);
    if (body !== plain) c.res.headers.set('Content-Encoding', coding);
    c.res.headers.set('Content-Length', String(body.length));
  };
}

/**
 * Marks an answer that carries a secret (a session token, an API key): it is never compressed, so no secret is
 * ever compressed beside text an attacker chose (BREACH). `no-transform` tells proxies the same; `no-store` is
 * what these answers had anyway.
 */
export const keepUncompressed: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store, no-transform');
};
