import type { FolderListing } from '../../storage/driver';

interface Entry {
  listing: FolderListing;
  expires: number;
  /** Until when the next pages of a listing read in pages may come from it, whatever the mount's TTL. */
  heldForPages: number;
  /** The mount's `cache_version` read before the listing was taken (see shared-cache.ts). */
  version: number;
}

/** Folders remembered at most, over all mounts: the oldest go first. */
const MAX_ENTRIES = 2000;

/**
 * How long a listing read for pages (`limit`) is kept for the pages that follow, from its read or its last page,
 * even on a mount that caches nothing: a page then costs a slice, not a read of the whole folder, and the pages
 * of one listing are of one read.
 */
export const PAGES_HOLD_SECONDS = 60;

/**
 * Folder listings per mount, each kept for its mount's `cache_ttl`. Writes through the API (and WebDAV) drop what
 * they touched at once, so the cache only ever hides changes made behind the app's back, and only until the TTL.
 * Each listing is tagged with its mount's version: a write through another instance bumps the version in the
 * database, and listings of an older version are not served.
 */
export class DirectoryCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => Date) {}

  private static id = (mountId: string, folder: string) => `${mountId}\u0000${folder}`;

  /** A fresh listing; with `nextPage`, also one held for the pages of a listing read in pages. */
  get(mountId: string, folder: string, version: number, nextPage = false): FolderListing | undefined {
    const id = DirectoryCache.id(mountId, folder);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const now = this.now().getTime();
    if (Math.max(entry.expires, entry.heldForPages) <= now || entry.version !== version) {
      this.entries.delete(id);
      return undefined;
    }
    if (entry.expires > now) return entry.listing;
    if (!nextPage || entry.heldForPages <= now) return undefined;
    entry.heldForPages = now + PAGES_HOLD_SECONDS * 1000;
    return entry.listing;
  }

  /** Keeps a listing for the mount's TTL; one read for pages (`forPages`) also for PAGES_HOLD_SECONDS. */
  set(mountId: string, folder: string, listing: FolderListing, ttlSeconds: number, version: number, forPages = false): void {
    if (ttlSeconds <= 0 && !forPages) return;
    const id = DirectoryCache.id(mountId, folder);
    const now = this.now().getTime();
    this.entries.delete(id);
    this.entries.set(id, { listing, expires: now + ttlSeconds * 1000, heldForPages: forPages ? now + PAGES_HOLD_SECONDS * 1000 : 0, version });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(oldest);
    }
  }

  /**
   * Drops a changed folder, everything below it and its parent folders (whose listings name it). `folder` is a
   * path inside the mount: '' is its root.
   */
  invalidate(mountId: string, folder: string): void {
    const prefix = DirectoryCache.id(mountId, '');
    for (const id of [...this.entries.keys()]) {
      if (!id.startsWith(prefix)) continue;
      const cached = id.slice(prefix.length);
      const below = folder === '' || cached === folder || cached.startsWith(`${folder}/`);
      const above = cached === '' || folder.startsWith(`${cached}/`);
      if (below || above) this.entries.delete(id);
    }
  }

  /**
   * This instance's own write moved the mount from version `to - 1` to `to`, and it has dropped what the write
   * touched: the listings it kept at `to - 1` are still right. (When another write came in between, `to - 1` is
   * not what they were read at, and they stay stale.)
   */
  carryOver(mountId: string, to: number): void {
    const prefix = DirectoryCache.id(mountId, '');
    for (const [id, entry] of this.entries) {
      if (id.startsWith(prefix) && entry.version === to - 1) entry.version = to;
    }
  }

  /** Empties one mount's listings, or all; answers how many were dropped. */
  clear(mountId?: string): number {
    let dropped = 0;
    const prefix = mountId === undefined ? '' : DirectoryCache.id(mountId, '');
    for (const id of [...this.entries.keys()]) {
      if (!id.startsWith(prefix)) continue;
      this.entries.delete(id);
      dropped += 1;
    }
    return dropped;
  }
}

/** One cache per app (tests build many apps in one process). */
const caches = new WeakMap<object, DirectoryCache>();
export function directoryCacheOf(owner: object, now: () => Date): DirectoryCache {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new DirectoryCache(now);
    caches.set(owner, cache);
  }
  return cache;
}
