import Dexie, { type EntityTable } from 'dexie';
import type { JournalEvent, JournalTask } from '../../contract/transfer';
import { replay } from './replay';

interface StoredEvent {
  seq?: number;
  taskId: string;
  event: JournalEvent;
}

/** The worker's own database: the append-only event log of every transfer task. */
class JournalDatabase extends Dexie {
  events!: EntityTable<StoredEvent, 'seq'>;
  constructor() {
    super('clipstash-transfer-journal');
    this.version(1).stores({ events: '++seq, taskId' });
  }
}

export interface Journal {
  append(event: JournalEvent): Promise<void>;
  /** Every task rebuilt from its log. */
  tasks(): Promise<Map<string, JournalTask>>;
  /** Drops a task's whole log (the user removed it from the list). */
  forget(taskId: string): Promise<void>;
}

export function openJournal(): Journal {
  const db = new JournalDatabase();
  return {
    async append(event) {
      await db.events.add({ taskId: event.taskId, event });
    },
    async tasks() {
      const rows = await db.events.orderBy('seq').toArray();
      return replay(rows.map((row) => row.event));
    },
    async forget(taskId) {
      await db.events.where('taskId').equals(taskId).delete();
    },
  };
}
