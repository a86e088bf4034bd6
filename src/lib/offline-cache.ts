import { whenSettled } from './idle';

/** The owner of answers given without credentials: the only ones a signed-out visitor is served offline. */
const PUBLIC_OWNER = 'public';

/** A short fingerprint of the credential, so that the token itself is not written to another place. */
export function ownerOf(credentials: { adminToken?: string; apiKey?: string }): string {
  if (credentials.adminToken) return `admin:${fingerprint(credentials.adminToken)}`;
  if (credentials.apiKey) return `key:${fingerprint(credentials.apiKey)}`;
  return PUBLIC_OWNER;
}

function fingerprint(text: string): string {
  // Two 32-bit FNV-1a passes: enough to tell credentials apart; not a secret and not meant to be one.
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x811c9dc5) >>> 0;
  }
  return a.toString(36) + b.toString(36);
}

/**
 * The store and Dexie load on first use, not with the app: storing waits until the page has settled (it must not
 * compete with the render of the answer being stored), and reading is only needed once the network has failed.
 * Code that cannot be loaded (offline before it was ever cached) means no offline copy.
 */
const loadStore = () => import('./offline-store').then(({ offlineStore }) => offlineStore, () => undefined);

/** The IndexedDB database of the offline cache (src/lib/offline-store.ts opens it). */
export const OFFLINE_DATABASE_NAME = 'clipstash-offline';

/** Whether the database may exist, told without opening it (which would create it, and load Dexie to do so). */
async function databaseMayExist(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases !== 'function') return true;
  const databases = await indexedDB.databases().catch(() => undefined);
  return databases?.some((info) => info.name === OFFLINE_DATABASE_NAME) ?? true;
}

/**
 * Bumped by each forgetting, so that an answer still waiting to be stored (storing waits for the page to settle)
 * is not written after the forgetting that should have taken it.
 */
const forgettings = { all: 0, signedIn: 0 };
const forgottenSince = (asked: typeof forgettings, owner: string) =>
  forgettings.all !== asked.all || (owner !== PUBLIC_OWNER && forgettings.signedIn !== asked.signedIn);

/**
 * The page's offline API layer (src/lib/api/client.ts uses it): successful business GETs are stored, and served
 * back as a 200 answer when the network fails. Every operation fails soft: no storage means no offline copy.
 */
export const offlineCache = {
  /** Keeps a successful JSON answer to a GET (once the page has settled; resolves once written or given up). */
  async store(request: string, owner: string, contentType: string | null, body: unknown): Promise<void> {
    const cachedAt = Date.now();
    const asked = { ...forgettings };
    await new Promise((resolve) => whenSettled(() => resolve(undefined)));
    const store = await loadStore();
    if (forgottenSince(asked, owner)) return;
    await store?.store(request, owner, contentType, body, cachedAt);
  },

  /** The stored answer to this GET as a 200 response, or undefined (none, expired, someone else's). */
  async answer(request: string, owner: string): Promise<Response | undefined> {
    return (await loadStore())?.answer(request, owner);
  },

  /** Forgets every answer given to a signed-in user (at sign-out: they must not outlive the session). */
  async forgetSignedIn(): Promise<void> {
    forgettings.signedIn++;
    // Every page that starts signed out asks: a visitor who never stored anything loads nothing for it.
    if (await databaseMayExist()) await (await loadStore())?.forgetAllBut(PUBLIC_OWNER);
  },

  /** Forgets everything (the settings' "Clear offline data"); rejects when the browser's storage refused. */
  async clear(): Promise<void> {
    forgettings.all++;
    await (await loadStore())?.clear();
  },
};
