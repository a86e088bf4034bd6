import type { AppDeps } from '../../context';
import { releaseName } from '../fs/free-names';
import type { MountTarget } from '../fs/resolve';
import type { JobItemRow } from './records';

export type ItemChanges = Partial<Omit<JobItemRow, 'job_id' | 'seq'>>;

interface ItemWrite {
  seq: number;
  changes: ItemChanges;
  /** A name the item held, given back in the same transaction as its outcome. */
  release?: MountTarget;
}

/**
 * The items' outcomes of one run, written together: one transaction per batch instead of a write (and a commit)
 * per item, which cost more than copying a small file. An outcome not yet written when the process dies leaves
 * its item pending, and the next run copies it again.
 */
export class ItemWrites {
  private waiting: ItemWrite[] = [];
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly deps: AppDeps,
    private readonly jobId: string,
    private readonly batch: number,
  ) {}

  add(seq: number, changes: ItemChanges, release?: MountTarget) {
    this.waiting.push({ seq, changes, release });
    if (this.waiting.length >= this.batch) void this.flush().catch(() => undefined);
  }

  /** Writes every outcome added so far; a batch that could not be written fails this and every later flush. */
  flush(): Promise<void> {
    const writes = this.waiting;
    this.waiting = [];
    this.writing = this.writing.then(async () => {
      if (this.failure !== undefined) throw this.failure;
      if (writes.length === 0) return;
      try {
        await this.write(writes);
      } catch (error) {
        this.failure = error;
        throw error;
      }
    });
    const written = this.writing;
    this.writing = written.catch(() => undefined);
    return written;
  }

  private write(writes: ItemWrite[]) {
    return this.deps.db.transaction().execute(async (trx) => {
      for (const { seq, changes, release } of writes) {
        await trx.updateTable('job_items').set(changes).where('job_id', '=', this.jobId).where('seq', '=', seq).execute();
        if (release) await releaseName({ ...this.deps, db: trx }, release);
      }
    });
  }
}
