import type { Draft } from '../../machines/draft.machine';

interface StoredDraft extends Draft {
  /** One draft per editor; the home editor is `home`. */
  id: string;
}

/**
 * This app's own small database for drafts (the offline cache and the transfer journal have their own), in plain
 * IndexedDB: the home page reads it at once, and Dexie's code would add 27 KB to that page's first load. The
 * layout is the one Dexie gave it (`version(1).stores({ drafts: 'id' })`, IndexedDB version 10), so drafts saved
 * before are read as they are.
 */
const DATABASE = 'clipstash-drafts';
const VERSION = 10;
const STORE = 'drafts';

let database: Promise<IDBDatabase> | undefined;
function db(): Promise<IDBDatabase> {
  database ??= new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(DATABASE, VERSION);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(STORE)) open.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
  }).catch((error: unknown) => {
    database = undefined; // blocked or refused this time: the next call tries again
    throw error;
  });
  return database;
}

/** Runs one request in its own transaction; resolves once the transaction is complete. */
async function run<T>(mode: IDBTransactionMode, request: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const transaction = (await db()).transaction(STORE, mode);
  const pending = request(transaction.objectStore(STORE));
  return new Promise<T>((resolve, reject) => {
    transaction.oncomplete = () => resolve(pending.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
}

export const draftStore = {
  async load(id: string): Promise<Draft | undefined> {
    const row = (await run('readonly', (store) => store.get(id))) as StoredDraft | undefined;
    return row && { content: row.content, savedAt: row.savedAt };
  },
  async save(id: string, content: string): Promise<number> {
    const savedAt = Date.now();
    await run('readwrite', (store) => store.put({ id, content, savedAt } satisfies StoredDraft));
    return savedAt;
  },
  async remove(id: string): Promise<void> {
    await run('readwrite', (store) => store.delete(id));
  },
};
