import { badInput } from '../../errors';
import { normalizePath, type FsPath } from '../fs/paths';
import { DavError } from './errors';

/** Where WebDAV lives: `/dav/local/a.txt` is the mount file system's `/local/a.txt`. */
export const DAV_PREFIX = '/dav';

/**
 * The file system path of a request URL's path. The URL is percent-decoded exactly once, here, and the result
 * goes through the one path layer (normalising and refusing what could escape); an undecodable URL is bad input.
 */
export function pathOfUrlPath(urlPath: string): FsPath {
  if (urlPath !== DAV_PREFIX && !urlPath.startsWith(`${DAV_PREFIX}/`)) throw new DavError(400);
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.slice(DAV_PREFIX.length));
  } catch {
    throw badInput('path', 'invalid_path');
  }
  return normalizePath(decoded === '' ? '/' : decoded);
}

/** The href of a path: each segment percent-encoded (spaces, `#`, `%`, `?`, CJK, emoji), folders with a `/`. */
export function hrefOf(path: FsPath, isFolder: boolean): string {
  if (path.segments.length === 0) return `${DAV_PREFIX}/`;
  return `${DAV_PREFIX}/${path.segments.map(encodeURIComponent).join('/')}${isFolder ? '/' : ''}`;
}

/** `Depth`: `0`, `1` or `infinity` (the default when the header is absent, as RFC 4918 says). */
export function depthOf(header: string | undefined, fallback: '0' | '1' | 'infinity' = 'infinity'): '0' | '1' | 'infinity' {
  if (header === undefined) return fallback;
  const value = header.trim().toLowerCase();
  if (value === '0' || value === '1' || value === 'infinity') return value;
  throw new DavError(400);
}

/** `Overwrite`: `T` (the default) or `F`. */
export function overwriteOf(header: string | undefined): boolean {
  if (header === undefined) return true;
  const value = header.trim().toUpperCase();
  if (value === 'T') return true;
  if (value === 'F') return false;
  throw new DavError(400);
}

/**
 * `Destination` of COPY and MOVE: an absolute URL on this server (as the request or PUBLIC_URL names it), or an
 * absolute path. Another host is refused with 502 (RFC 4918 §9.8.5: this server does not copy to other servers).
 */
export function destinationOf(header: string | undefined, requestUrl: string, publicBaseUrl: string): FsPath {
  if (!header) throw new DavError(400);
  let target: URL;
  try {
    target = new URL(header, requestUrl);
  } catch {
    throw new DavError(400);
  }
  const ours = [new URL(requestUrl).host, new URL(publicBaseUrl).host];
  if (!ours.includes(target.host)) throw new DavError(502);
  return pathOfUrlPath(target.pathname);
}
