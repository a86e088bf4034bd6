import type { IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { UrlInfo } from '../../../contract/url-upload';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { BudgetGuard } from '../../forms/budget-guard';
import type { MessageKey } from '../../i18n/messages';
import { safeFetch, UrlFetchError, UrlRefusedError, type FetchPolicy, type SafeRequest, type SafeResponse } from '../../net/safe-fetch';
import { contentDisposition, cleanContentType } from '../../storage/http-headers';
import { cleanFilename } from '../../storage/keys';
import { reasonOf } from '../../storage/reason';
import { APP_VERSION } from '../../version';
import { assertFits, type UploadLimits } from '../storages/upload-limits';
import { readSettings } from '../settings/settings';
import { responseBody } from '../../storage/response-body';

const USER_AGENT = `Clipstash/${APP_VERSION} (URL upload)`;
/** `url/info` asks twice at most (HEAD, then a one-byte GET): each must answer promptly. */
const INFO_IDLE_MS = 15_000;
/** `url/proxy` streams for as long as bytes keep coming. */
const PROXY_IDLE_MS = 60_000;

const policyOf = (deps: AppDeps, idleTimeoutMs: number): FetchPolicy => ({
  idleTimeoutMs,
  ...deps.urlFetch,
  allowPrivate: deps.config.allowPrivateUrls,
});

const REFUSAL_MESSAGES: Record<UrlRefusedError['reason'], MessageKey> = {
  scheme: 'url_scheme_not_allowed',
  credentials: 'url_credentials_not_allowed',
  host: 'url_host_invalid',
  unresolvable: 'url_host_unresolvable',
  loopback: 'url_private_address',
  private: 'url_private_address',
  cgnat: 'url_private_address',
  link_local: 'url_link_local_address',
  metadata: 'url_metadata_address',
  multicast: 'url_special_address',
  unspecified: 'url_special_address',
  reserved: 'url_special_address',
};

/** Every refusal and failure of a server-side fetch as a 400 naming the reason (`data.issue`). */
export function urlProblem(error: unknown): unknown {
  if (error instanceof UrlRefusedError) {
    const data = { field: 'url', issue: error.reason, host: error.host, ...(error.address && { address: error.address }) };
    // A name is shown with what it resolved to; an address typed as such is shown once.
    const target = error.address && error.address !== error.host ? `${error.host} → ${error.address}` : error.host;
    return new ApiError(400, REFUSAL_MESSAGES[error.reason], { host: error.host, target }, data);
  }
  if (error instanceof UrlFetchError) {
    if (error.kind === 'timeout') return new ApiError(400, 'url_timeout', {}, { field: 'url', issue: 'timeout' });
    if (error.kind === 'redirects') return new ApiError(400, 'url_too_many_redirects', { max: 5 }, { field: 'url', issue: 'too_many_redirects' });
    if (error.kind === 'bad_redirect') return new ApiError(400, 'url_bad_redirect', {}, { field: 'url', issue: 'bad_redirect' });
    return new ApiError(400, 'url_fetch_failed', { reason: reasonOf(error) }, { field: 'url', issue: 'network' });
  }
  return error;
}

async function fetchSource(deps: AppDeps, url: string, request: SafeRequest, idleMs: number): Promise<SafeResponse> {
  try {
    return await safeFetch(url, request, policyOf(deps, idleMs));
  } catch (error) {
    throw urlProblem(error);
  }
}

const isOk = (status: number) => status >= 200 && status < 300;
const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim();
};

const sourceStatus = (status: number) => new ApiError(400, 'url_source_status', { status }, { field: 'url', issue: 'source_status', status });

/** Bytes of the whole source, when the answer says: Content-Range of a 206, else an unencoded Content-Length. */
export function sizeOf(status: number, headers: IncomingHttpHeaders): number | null {
  if (status === 206) {
    const total = /\/(\d+)\s*$/.exec(header(headers, 'content-range') ?? '')?.[1];
    return total !== undefined ? Number(total) : null;
  }
  const encoding = header(headers, 'content-encoding')?.toLowerCase();
  const length = header(headers, 'content-length');
  if ((encoding && encoding !== 'identity') || !length || !/^\d+$/.test(length)) return null;
  return Number(length);
}

/** The file name a Content-Disposition header gives (`filename*` first, RFC 6266), if any. */
export function filenameFromDisposition(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const extended = /filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[^']*'([^;]+)/i.exec(value);
  if (extended?.[2]) {
    const charset = extended[1]?.toLowerCase();
    const encoded = extended[2].trim();
    try {
      if (charset === 'utf-8') return decodeURIComponent(encoded);
      // ISO-8859-1: each %XX is one character.
      return encoded.replace(/%([0-9a-f]{2})/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    } catch {
      // A broken filename* falls back to filename.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(value);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const token = /filename\s*=\s*([^;\s]+)/i.exec(value);
  return token?.[1];
}

/** The name of the file at `url`: Content-Disposition, else the last path segment, else `download`. */
export function filenameOf(url: string, headers: IncomingHttpHeaders): string {
  const fromHeader = filenameFromDisposition(header(headers, 'content-disposition'));
  if (fromHeader && cleanFilename(fromHeader) !== 'file') return cleanFilename(fromHeader);
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Keep it as written.
  }
  const name = cleanFilename(decoded);
  return name === 'file' && !decoded ? 'download' : name;
}

/**
 * Whether the browser may read the source itself. The worker fetches `url` with a plain GET (no credentials, no
 * custom headers: a CORS "simple request", no preflight), so the browser allows it exactly when the answer's
 * `Access-Control-Allow-Origin` is `*` or this app's origin. We send `Origin: <app origin>` with our HEAD (or
 * ranged GET) and read that header on the final answer, as the browser would.
 */
export function corsAllows(headers: IncomingHttpHeaders, origin: string): boolean {
  const allowed = header(headers, 'access-control-allow-origin');
  return allowed === '*' || (allowed !== undefined && allowed.toLowerCase() === origin.toLowerCase());
}

/**
 * `POST /api/url/info`: a HEAD (falling back to a one-byte ranged GET for servers that refuse HEAD or do not
 * tell the size), under the SSRF guard, redirects followed. `origin`: the app's origin the browser runs on.
 */
export async function urlInfo(deps: AppDeps, url: string, origin: string): Promise<UrlInfo> {
  const headers = { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity', origin };
  const head = await fetchSource(deps, url, { method: 'HEAD', headers }, INFO_IDLE_MS);
  head.body.destroy();
  let answer: SafeResponse | undefined = isOk(head.status) ? head : undefined;
  let size = answer ? sizeOf(answer.status, answer.headers) : null;
  if (!answer || size === null) {
    const ranged = await fetchSource(deps, url, { method: 'GET', headers: { ...headers, range: 'bytes=0-0' } }, INFO_IDLE_MS);
    ranged.body.destroy();
    if (isOk(ranged.status)) {
      answer ??= ranged;
      size = sizeOf(ranged.status, ranged.headers);
    } else if (!answer) throw sourceStatus(ranged.status);
  }
  return {
    url: answer.url,
    filename: filenameOf(answer.url, answer.headers),
    size,
    contentType: cleanContentType(header(answer.headers, 'content-type')),
    corsAllowed: corsAllows(answer.headers, origin),
  };
}

/**
 * `GET /api/url/proxy?url=`: the source's bytes streamed through (never held), for sources whose CORS keeps the
 * browser out. At most the max upload size: refused up front (413) when the source declares more, cut off when
 * it sends more than it declared or declared nothing. Served as an attachment, sandboxed, never cached.
 */
export async function proxyUrl(deps: AppDeps, url: string): Promise<Response> {
  const { max_upload_size } = await readSettings(deps.db);
  const limits: UploadLimits = { maxUploadBytes: Math.floor(max_upload_size * 1024 * 1024) };
  const source = await fetchSource(
    deps,
    url,
    { method: 'GET', headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity' } },
    PROXY_IDLE_MS,
  );
  if (!isOk(source.status)) {
    source.body.destroy();
    throw sourceStatus(source.status);
  }
  const declared = sizeOf(source.status === 206 ? 200 : source.status, source.headers);
  if (declared !== null) {
    try {
      assertFits(declared, limits);
    } catch (error) {
      source.body.destroy();
      throw error;
    }
  }
  const limit = new BudgetGuard(Math.min(limits.maxUploadBytes, declared ?? Infinity));
  // Either side failing (the source, the limit, the client going away) tears down both.
  pipeline(source.body, limit).catch(() => undefined);

  const contentType = cleanContentType(header(source.headers, 'content-type'));
  const headers = new Headers({
    'Content-Type': contentType,
    'Content-Disposition': contentDisposition('attachment', filenameOf(source.url, source.headers)),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': 'sandbox',
    'Cache-Control': 'no-store',
  });
  if (declared !== null && source.status === 200) headers.set('Content-Length', String(declared));
  return new Response(responseBody(limit), { status: 200, headers });
}
