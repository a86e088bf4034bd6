import { lookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { isIP, type Socket } from 'node:net';
import tls from 'node:tls';
import { classifyAddress, isAddressAllowed, type AddressKind } from './address-policy';

/** Every address a host name has (A and AAAA), as the system resolver answers. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface FetchPolicy {
  /** `ALLOW_PRIVATE_URLS=1`: loopback, private, CGNAT and link-local addresses may be fetched. */
  allowPrivate: boolean;
  resolve?: Resolver;
  /**
   * Where a checked address is really reached. Production: the address itself. Tests map documentation
   * addresses (which pass the check as public) to local servers; the check itself is never skipped.
   */
  route?: (address: string, port: number) => { address: string; port: number };
  /** Time to establish the connection (TCP and TLS). Default 10 s. */
  connectTimeoutMs?: number;
  /** Longest silence on the connection once established (waiting for headers or body bytes). Default 30 s. */
  idleTimeoutMs?: number;
  /** Redirects followed; one more is refused. Default 5. */
  maxRedirects?: number;
}

/**
 * Why a URL may not be fetched. `reason`: `scheme` (not http/https), `credentials` (user:password@ in the URL),
 * `host` (no host), `unresolvable` (DNS has no address), or the AddressKind of a refused address.
 */
export class UrlRefusedError extends Error {
  constructor(
    readonly reason: 'scheme' | 'credentials' | 'host' | 'unresolvable' | Exclude<AddressKind, 'public'>,
    readonly host: string,
    readonly address?: string,
  ) {
    super(`Refused to fetch from ${host}${address ? ` (${address})` : ''}: ${reason}`);
    this.name = 'UrlRefusedError';
  }
}

/** A fetch that was allowed but failed: `timeout`, `redirects` (too many or to a broken address), `network`. */
export class UrlFetchError extends Error {
  constructor(
    readonly kind: 'timeout' | 'redirects' | 'bad_redirect' | 'network',
    detail: string,
    cause?: unknown,
  ) {
    super(detail, { cause });
    this.name = 'UrlFetchError';
  }
}

export interface SafeResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it arrives; destroy it when not read. */
  body: IncomingMessage;
}

export interface SafeRequest {
  method: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  /** A POST's body (a webhook's), sent whole. */
  body?: string;
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The address to connect to for a URL: every address of its host must pass, or the URL is refused. */
export async function checkUrl(url: URL, policy: FetchPolicy): Promise<{ address: string; port: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlRefusedError('scheme', url.protocol);
  if (url.username || url.password) throw new UrlRefusedError('credentials', url.hostname);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new UrlRefusedError('host', url.href);
  const address = await checkHost(host, policy);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { address, port };
}

/**
 * The address to connect to for a host name or IP (a storage server's too): every address of the host must pass,
 * or the host is refused.
 */
export async function checkHost(host: string, policy: Pick<FetchPolicy, 'allowPrivate' | 'resolve'>): Promise<string> {
  let addresses: { address: string }[];
  if (isIP(host)) addresses = [{ address: host }];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(host);
    } catch {
      throw new UrlRefusedError('unresolvable', host);
    }
  }
  if (addresses.length === 0) throw new UrlRefusedError('unresolvable', host);
  // One refused address refuses the host: a name that also points inside must not be fetched at all.
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind !== 'public' && !isAddressAllowed(kind, policy.allowPrivate)) throw new UrlRefusedError(kind, host, address);
  }
  // IPv4 first: a server without an IPv6 route would fail on an AAAA answer listed first (no happy eyeballs here).
  const chosen = addresses.find(({ address }) => isIP(address) === 4) ?? addresses[0];
  return chosen?.address ?? host;
}

/** One request to the address that was checked (no second DNS lookup: no rebinding between check and connect). */
async function requestOnce(url: URL, request: SafeRequest, policy: FetchPolicy): Promise<IncomingMessage> {
  const checked = await checkUrl(url, policy);
  const target = policy.route ? policy.route(checked.address, checked.port) : checked;
  const connectTimeout = policy.connectTimeoutMs ?? 10_000;
  const idleTimeout = policy.idleTimeoutMs ?? 30_000;
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');

  const createConnection = (): Socket => {
    const socket = secure
      ? tls.connect({
          host: target.address,
          port: target.port,
          // The certificate is checked against the URL's host name, as without the pinning.
          ...(isIP(hostname) ? {} : { servername: hostname }),
          ALPNProtocols: ['http/1.1'],
        })
      : net.connect({ host: target.address, port: target.port });
    const timer = setTimeout(() => socket.destroy(new UrlFetchError('timeout', `no connection within ${connectTimeout} ms`)), connectTimeout);
    socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };

  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = (secure ? https : http).request(url, {
      method: request.method,
      headers: request.headers,
      createConnection,
      signal: request.signal,
    });
    req.setTimeout(idleTimeout, () => req.destroy(new UrlFetchError('timeout', `no answer for ${idleTimeout} ms`)));
    req.once('response', resolve);
    req.once('error', (error) => {
      if (error instanceof UrlFetchError || error instanceof UrlRefusedError) reject(error);
      else if ((error as { name?: string }).name === 'AbortError') reject(error);
      else reject(new UrlFetchError('network', (error as Error).message, error));
    });
    req.end(request.body);
  });
}

/**
 * A GET, HEAD or POST to a user-given URL under the SSRF guard: http(s) only; the host resolved and every address
 * checked (see address-policy.ts) before connecting, and the connection made to that very address; the same
 * for every redirect, at most `maxRedirects`; time-outs for connecting and for silence.
 */
export async function safeFetch(href: string, request: SafeRequest, policy: FetchPolicy): Promise<SafeResponse> {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new UrlRefusedError('host', href);
  }
  const maxRedirects = policy.maxRedirects ?? 5;
  for (let redirects = 0; ; redirects++) {
    const response = await requestOnce(url, request, policy);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    // A POST is never sent again elsewhere: its redirect is its answer.
    if (!REDIRECTS.has(status) || !location || request.method === 'POST') return { url: url.href, status, headers: response.headers, body: response };
    response.destroy();
    if (redirects >= maxRedirects) throw new UrlFetchError('redirects', `more than ${maxRedirects} redirects`);
    try {
      url = new URL(location, url);
    } catch {
      throw new UrlFetchError('bad_redirect', `redirect to an invalid address: ${location.slice(0, 200)}`);
    }
  }
}
