import type { Dexie, EntityTable } from 'dexie';
import { OFFLINE_DATABASE_NAME } from './offline-cache';
import { mayKeepOffline, offlineSlot } from './offline-policy';
/** Business answers are kept 7 days; the database is at version 2 with four stores. */
export const OFFLINE_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const OFFLINE_DATABASE_VERSION = 2;

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

/**
 * Dexie loads on first use, not with the app: a visitor's first render does not wait for it, and it is only needed
 * once there is something to store (by then the service worker keeps its code for offline use too).
 */
let database: Promise<OfflineDatabase | undefined> | undefined;
function db(): Promise<OfflineDatabase | undefined> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(undefined);
  database ??= import('dexie').then(
    ({ Dexie }) => {
      const store = new Dexie(OFFLINE_DATABASE_NAME) as OfflineDatabase;
      store.version(OFFLINE_DATABASE_VERSION).stores({
        pastes: 'slug, cachedAt',
        files: 'slug, cachedAt',
        directories: 'path, cachedAt',
        settings: 'key, cachedAt',
      });
      void sweep(store);
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

/**
 * Drops every entry older than 7 days, and every share the policy refuses (kept by a version before it); runs once
 * per page, when the database is first used.
 */
async function sweep(store: OfflineDatabase) {
  const cutoff = Date.now() - OFFLINE_CACHE_MAX_AGE_MS;
  await Promise.all([
    ...[store.pastes, store.files, store.directories, store.settings].map((table) =>
      table.where('cachedAt').belowOrEqual(cutoff).delete(),
    ),
    store.pastes.filter((entry) => !mayKeepOffline({ store: 'pastes', key: entry.slug }, entry.body)).delete(),
    store.files.filter((entry) => !mayKeepOffline({ store: 'files', key: entry.slug }, entry.body)).delete(),
  ]).catch(() => undefined);
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
      // A share that has become private since it was kept (a limit or password added) loses its old copy too.
      if (!mayKeepOffline(slot, body)) await store[slot.store].delete(slot.key);
      else if (slot.store === 'directories') await store.directories.put({ ...entry, path: slot.key });
      else if (slot.store === 'settings') await store.settings.put({ ...entry, key: slot.key });
      else await store[slot.store].put({ ...entry, slug: slot.key });
    } catch {
      // Quota, private mode, a blocked upgrade: the answer simply is not available offline.
    }
  },

  /** The stored answer to this GET as a 200 response, or undefined (none, expired, private, someone else's). */
  async answer(request: string, owner: string): Promise<Response | undefined> {
    const slot = offlineSlot(request);
    if (!slot) return undefined;
    try {
      const store = await db();
      if (!store) return undefined;
      const entry: CachedAnswer | undefined = await store[slot.store].get(slot.key);
      if (!entry) return undefined;
      // Whoever asks: an expired answer, or a share this version never keeps (an older one did), goes at once.
      if (expired(entry.cachedAt, Date.now()) || !mayKeepOffline(slot, entry.body)) {
        await store[slot.store].delete(slot.key);
        return undefined;
      }
      if (entry.owner !== owner || entry.request !== request) return undefined;
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

  /** Forgets everything (the settings' "Clear offline data"). */
  async clear(): Promise<void> {
    const store = await db();
    if (!store) return;
    await Promise.all([store.pastes.clear(), store.files.clear(), store.directories.clear(), store.settings.clear()]);
  },
};
