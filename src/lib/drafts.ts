import Dexie, { type EntityTable } from 'dexie';
import type { Draft } from '../../machines/draft.machine';

interface StoredDraft extends Draft {
  /** One draft per editor; the home editor is `home`. */
  id: string;
}

/** This app's own small database for drafts (the offline cache and the transfer journal have their own). */
class DraftDatabase extends Dexie {
  drafts!: EntityTable<StoredDraft, 'id'>;
  constructor() {
    super('clipstash-drafts');
    this.version(1).stores({ drafts: 'id' });
  }
}

let database: DraftDatabase | undefined;
const db = () => (database ??= new DraftDatabase());

export const draftStore = {
  async load(id: string): Promise<Draft | undefined> {
    const row = await db().drafts.get(id);
    return row && { content: row.content, savedAt: row.savedAt };
  },
  async save(id: string, content: string): Promise<number> {
    const savedAt = Date.now();
    await db().drafts.put({ id, content, savedAt });
    return savedAt;
  },
  async remove(id: string): Promise<void> {
    await db().drafts.delete(id);
  },
};
