import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import type { DB } from '../db/database';
import { withDefaultHeaders } from './default-headers';

/**
 * The app's own pages: scripts only from this origin (no inline code, no eval), never framed, no plugins, no
 * `<base>` rewriting. Styles allow inline: React's style props are CSSOM writes, which CSP does not govern, but
 * Radix's scroll lock and CodeMirror (where constructable style sheets are missing) add `<style>` elements, and a
 * style cannot run code. Previews and the text-preview fetch follow redirects to the storage's own origins (S3
 * presigned URLs), so `storageOrigins` extends img/media/frame/connect; Markdown pastes may show images from any
 * https site. An EPUB's stylesheets and fonts are handed to its chapters' frames as blob: URLs (the file preview
 * reads them from the book, in the page); a style or a font cannot run code. The transfer worker, its copy couriers and the service workers are scripts of this origin
 * (`worker-src 'self'`); a worker's own requests (S3 parts, URL sources) follow its own response's policy, and
 * assets carry none.
 */
export function contentSecurityPolicy(storageOrigins: readonly string[]): string {
  const storage = storageOrigins.join(' ');
  const directives: [string, string][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self' 'unsafe-inline' blob:"],
    ['img-src', `'self' data: blob: https: ${storage}`],
    ['media-src', `'self' blob: ${storage}`],
    ['frame-src', `'self' blob: ${storage}`],
    ['connect-src', `'self' ${storage}`],
    ['font-src', "'self' data: blob:"],
    ['worker-src', "'self'"],
    ['manifest-src', "'self'"],
    ['form-action', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.trim()}`).join('; ');
}

/**
 * The origins browsers reach S3 storage at: the endpoint itself for path-style configs, `bucket.endpoint` for
 * virtual-hosted ones (as the S3 driver builds its URLs). Read for each page, so a config saved a moment ago is
 * allowed on the next navigation; a page is one small query.
 */
export async function storageOrigins(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom('storage_configs')
    .select(['endpoint_url', 'bucket_name', 'path_style'])
    .where('storage_type', '=', 'S3')
    .execute();
  const origins = new Set<string>();
  for (const row of rows) {
    const origin = originOf(row.endpoint_url, row.path_style === 1 ? null : row.bucket_name);
    if (origin) origins.add(origin);
  }
  return [...origins].sort();
}

function originOf(endpoint: string | null, bucket: string | null): string | undefined {
  try {
    const url = new URL(endpoint ?? '');
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return bucket ? `${url.protocol}//${bucket}.${url.host}` : url.origin;
  } catch {
    return undefined;
  }
}

/** Every answer's: share links and signed URLs must not leak to other sites through the Referer header. */
const EVERY_ANSWER = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
/** Answers to the API or to a request with credentials also hold tokens, private lists or counted views. */
const CREDENTIALED_ANSWER = { ...EVERY_ANSWER, 'Cache-Control': 'no-store' };

/**
 * Headers for every answer, never replacing one the route chose (file streams keep their sandbox CSP and
 * `private, no-cache`; assets keep their year-long caching):
 * - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` everywhere;
 * - `Cache-Control: no-store` on API answers and on anything asked with credentials: none of them may be kept or
 *   replayed by a cache;
 * - the app's CSP on its HTML pages. The API's HTML answers (its reference page, stored files) carry their own, so
 *   API answers are not looked at: reading an answer's headers makes its web `Headers` (withDefaultHeaders).
 */
export function securityHeaders(db: DB): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const api = c.req.path.startsWith('/api/');
    const credentialed = api || c.req.header('authorization') !== undefined;
    await withDefaultHeaders(c, next, credentialed ? CREDENTIALED_ANSWER : EVERY_ANSWER);
    if (api) return;
    const headers = c.res.headers;
    if (/^text\/html\b/i.test(headers.get('Content-Type') ?? '') && !headers.has('Content-Security-Policy')) {
      headers.set('Content-Security-Policy', contentSecurityPolicy(await storageOrigins(db)));
    }
  };
}
