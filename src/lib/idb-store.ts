/**
 * One object store of a small database of this app's own, in plain IndexedDB (Dexie's code would weigh on the pages
 * that read it at once, and on the service worker). Used by the drafts and by the share target's inbox.
 */
export function idbStore(database: string, version: number, store: string) {
  let opened: Promise<IDBDatabase> | undefined;
  const db = (): Promise<IDBDatabase> => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(database, version);
      open.onupgradeneeded = () => {
        if (!open.result.objectStoreNames.contains(store)) open.result.createObjectStore(store, { keyPath: 'id' });
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
    }).catch((error: unknown) => {
      opened = undefined; // blocked or refused this time: the next call tries again
      throw error;
    });
    return opened;
  };

  /** Runs one request in its own transaction; resolves once the transaction is complete. */
  return async function run<T>(mode: IDBTransactionMode, request: (objects: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const transaction = (await db()).transaction(store, mode);
    const pending = request(transaction.objectStore(store));
    return new Promise<T>((resolve, reject) => {
      transaction.oncomplete = () => resolve(pending.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    });
  };
}
