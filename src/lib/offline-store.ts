import type { Dexie, EntityTable } from 'dexie';
/** Business answers are kept 7 days; the database is at version 2 with four stores. */
export const OFFLINE_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const OFFLINE_DATABASE_VERSION = 2;
const DATABASE_NAME = 'clipstash-offline';

interface CachedAnswer {
  /** The answer's JSON body (the envelope), as the server sent it. */
  body: unknown;
  /** When it was stored (ms since the epoch). */
  cachedAt: number;
  /** Whose answer it is (a fingerprint of the credential it was asked with): never served to someone else. */
  owner: string;
  /** The API path it answered, query included. */
  request: string;
}
interface PasteEntry extends CachedAnswer {
  slug: string;
}
interface FileEntry extends CachedAnswer {
  slug: string;
}
interface DirectoryEntry extends CachedAnswer {
  path: string;
}
interface SettingEntry extends CachedAnswer {
  key: string;
}

/** The offline API cache. Owned here: nothing else opens this database. */
type OfflineDatabase = Dexie & {
  pastes: EntityTable<PasteEntry, 'slug'>;
  files: EntityTable<FileEntry, 'slug'>;
  directories: EntityTable<DirectoryEntry, 'path'>;
  settings: EntityTable<SettingEntry, 'key'>;
};

type StoreName = 'pastes' | 'files' | 'directories' | 'settings';
interface Slot {
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

/** Where an API path's answer lives: pastes and files by slug, directory listings by path, the rest by path. */
export function offlineSlot(request: string): Slot | undefined {
  const url = new URL(request, 'http://api.invalid');
  const path = url.pathname;
  if (NEVER_CACHED.some((pattern) => pattern.test(path))) return undefined;
  const paste = /^\/paste\/([^/]+)$/.exec(path);
  if (paste?.[1]) return { store: 'pastes', key: decodeURIComponent(paste[1]) };
  const file = /^\/public\/files\/([^/]+)$/.exec(path);
  if (file?.[1]) return { store: 'files', key: decodeURIComponent(file[1]) };
  if (/^\/(admin|user)\/fs\/list$/.test(path)) return { store: 'directories', key: url.searchParams.get('path') ?? '/' };
  return { store: 'settings', key: `api:${path}${url.search}` };
}

/**
 * Dexie loads on first use, not with the app: a visitor's first render does not wait for it, and it is only needed
 * once there is something to store (by then the service worker keeps its code for offline use too).
 */
let database: Promise<OfflineDatabase | undefined> | undefined;
function db(): Promise<OfflineDatabase | undefined> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(undefined);
  database ??= import('dexie').then(
    ({ Dexie }) => {
      const store = new Dexie(DATABASE_NAME) as OfflineDatabase;
      store.version(OFFLINE_DATABASE_VERSION).stores({
        pastes: 'slug, cachedAt',
        files: 'slug, cachedAt',
        directories: 'path, cachedAt',
        settings: 'key, cachedAt',
      });
      void sweepExpired(store);
      return store;
    },
    () => {
      database = undefined; // its code could not be loaded (offline before it was ever cached): try again later
      return undefined;
    },
  );
  return database;
}

const expired = (cachedAt: number, now: number) => now - cachedAt >= OFFLINE_CACHE_MAX_AGE_MS || cachedAt > now;

/** Drops every entry older than 7 days; runs once per page, when the database is first used. */
async function sweepExpired(store: OfflineDatabase) {
  const cutoff = Date.now() - OFFLINE_CACHE_MAX_AGE_MS;
  await Promise.all(
    [store.pastes, store.files, store.directories, store.settings].map((table) =>
      table.where('cachedAt').belowOrEqual(cutoff).delete(),
    ),
  ).catch(() => undefined);
}

/** The Dexie side of the offline API cache (src/lib/offline-cache.ts loads it when first needed). */
export const offlineStore = {
  /** Keeps a successful JSON answer to a GET, received at `cachedAt` (resolves once written or given up). */
  async store(request: string, owner: string, contentType: string | null, body: unknown, cachedAt: number): Promise<void> {
    const slot = offlineSlot(request);
    if (!slot || !contentType?.includes('application/json')) return;
    const entry = { body, cachedAt, owner, request };
    try {
      const store = await db();
      if (!store) return;
      if (slot.store === 'directories') await store.directories.put({ ...entry, path: slot.key });
      else if (slot.store === 'settings') await store.settings.put({ ...entry, key: slot.key });
      else await store[slot.store].put({ ...entry, slug: slot.key });
    } catch {
      // Quota, private mode, a blocked upgrade: the answer simply is not available offline.
    }
  },

  /** The stored answer to this GET as a 200 response, or undefined (none, expired, someone else's). */
  async answer(request: string, owner: string): Promise<Response | undefined> {
    const slot = offlineSlot(request);
    if (!slot) return undefined;
    try {
      const store = await db();
      if (!store) return undefined;
      const entry: CachedAnswer | undefined = await store[slot.store].get(slot.key);
      if (!entry || entry.owner !== owner || entry.request !== request) return undefined;
      if (expired(entry.cachedAt, Date.now())) {
        await store[slot.store].delete(slot.key);
        return undefined;
      }
      return new Response(JSON.stringify(entry.body), {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-clipstash-offline-cache': new Date(entry.cachedAt).toISOString() },
      });
    } catch {
      return undefined;
    }
  },

  /** Forgets every answer not given to `keptOwner`. */
  async forgetAllBut(keptOwner: string): Promise<void> {
    const store = await db();
    if (!store) return;
    await Promise.all(
      [store.pastes, store.files, store.directories, store.settings].map((table) =>
        table.filter((entry) => entry.owner !== keptOwner).delete(),
      ),
    ).catch(() => undefined);
  },

  /** Forgets everything (tests; a future "clear offline data" button). */
  async clear(): Promise<void> {
    const store = await db();
    if (!store) return;
    await Promise.all([store.pastes.clear(), store.files.clear(), store.directories.clear(), store.settings.clear()]);
  },
};
