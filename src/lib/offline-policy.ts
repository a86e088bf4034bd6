/** What the offline API cache may keep (src/lib/offline-store.ts applies it on every write and every read). */

export type StoreName = 'pastes' | 'files' | 'directories' | 'settings';
export interface Slot {
  store: StoreName;
  key: string;
}

/**
 * GETs that are never kept: system, health and version; credential and slug checks, whose
 * stale answers would lie; API keys (secrets are not copied); raw text, remote-URL helpers; file download, file
 * view, Office preview, and the mount file system's preview and download (binary content). Anything else that is
 * not JSON is skipped when stored.
 */
const NEVER_CACHED = [
  /^\/(system|health|version)(\/|$)/,
  /^\/test\//,
  /^\/admin\/check$/,
  /^\/admin\/api-keys(\/|$)/,
  /^\/slugs\//,
  /^\/raw\//,
  /^\/url\//,
  /^\/(file-download|file-view|office-preview)(\/|$)/,
  /^\/(admin|user)\/fs\/(preview|download)$/,
];

/** Where an API path's answer lives: pastes and files by slug, directory listings by path (and page), the rest by path. */
export function offlineSlot(request: string): Slot | undefined {
  const url = new URL(request, 'http://api.invalid');
  const path = url.pathname;
  if (NEVER_CACHED.some((pattern) => pattern.test(path))) return undefined;
  const paste = /^\/paste\/([^/]+)$/.exec(path);
  if (paste?.[1]) return { store: 'pastes', key: decodeURIComponent(paste[1]) };
  const file = /^\/public\/files\/([^/]+)$/.exec(path);
  if (file?.[1]) return { store: 'files', key: decodeURIComponent(file[1]) };
  if (/^\/(admin|user)\/fs\/list$/.test(path)) {
    // A large folder comes in pages: each is kept apart, so that offline its first page is not answered for the rest.
    const folder = url.searchParams.get('path') ?? '/';
    const offset = Number(url.searchParams.get('offset') ?? 0);
    return { store: 'directories', key: offset > 0 ? `${folder}\u0000${offset}` : folder };
  }
  return { store: 'settings', key: `api:${path}${url.search}` };
}

/**
 * Whether a share's answer (contract/public-paste.ts, contract/public-file.ts) may be kept: only an open one. A
 * view limit, a password or encryption means its owner chose who reads it and how often, and a copy on this
 * machine would let the next person at it read it again. Told from the answer's own fields; an answer without
 * them (not a share as this version knows it) is not kept either.
 */
function isOpenShare(body: unknown): boolean {
  const data = (body as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return false;
  const share = data as Record<string, unknown>;
  const passwordless = share.hasPassword === false && share.requiresPassword !== true && share.requires_password !== true;
  return share.maxViews === 0 && passwordless && (share.encryption ?? null) === null;
}

/** Whether this answer (the envelope as the server sent it) may be kept in, and served from, `slot`. */
export function mayKeepOffline(slot: Slot, body: unknown): boolean {
  return slot.store === 'pastes' || slot.store === 'files' ? isOpenShare(body) : true;
}
