import Dexie, { type EntityTable } from 'dexie';
import type { JournalEvent, JournalTask } from '../../contract/transfer';
import { replay } from './replay';

interface StoredEvent {
  seq?: number;
  taskId: string;
  event: JournalEvent;
}

/**
 * The worker's own database: the append-only event log of every transfer task. Nothing watches it live (the page
 * asks the worker for its tasks), so its writes are not observed: Dexie would otherwise post a notice of each write
 * to every context that loaded Dexie, the page's main thread among them, several times per part uploaded.
 */
class JournalDatabase extends Dexie {
  events!: EntityTable<StoredEvent, 'seq'>;
  constructor() {
    super('clipstash-transfer-journal', { cache: 'disabled' });
    this.unuse({ stack: 'dbcore', name: 'Observability' });
    this.version(1).stores({ events: '++seq, taskId' });
  }
}

export interface Journal {
  append(event: JournalEvent): Promise<void>;
  /** Every task rebuilt from its log. */
  tasks(): Promise<Map<string, JournalTask>>;
  /** One task rebuilt from its own log alone (the log is indexed by task): what a running task looks up. */
  task(taskId: string): Promise<JournalTask | undefined>;
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
    async task(taskId) {
      const rows = await db.events.where('taskId').equals(taskId).sortBy('seq');
      return replay(rows.map((row) => row.event)).get(taskId);
    },
    async forget(taskId) {
      await db.events.where('taskId').equals(taskId).delete();
    },
  };
}
