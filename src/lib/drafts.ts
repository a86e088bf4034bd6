import type { Draft } from '../../machines/draft.machine';
import { idbStore } from './idb-store';

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
const run = idbStore('clipstash-drafts', 10, 'drafts');

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
