import type { AppDeps } from '../../context';
import { BatchedWrites } from '../../db/batched-writes';

/** How often counted views of shares without a view limit reach the database. */
export const VIEW_FLUSH_MS = 1000;

type ShareTable = 'pastes' | 'files';

/**
 * Views of shares without a view limit, counted in memory and written in one transaction about once a second
 * (and at shutdown, and before any management read): a popular paste's readers no longer queue on one row's
 * write lock. A crash loses at most the last second of such counts. Shares with a limit never come here: their
 * views are counted atomically in the statement that checks the limit.
 */
export class ViewCounts {
  private readonly writes: BatchedWrites<{ table: ShareTable; id: string; count: number }>;

  constructor(deps: Pick<AppDeps, 'db'>, everyMs = VIEW_FLUSH_MS) {
    this.writes = new BatchedWrites(
      (batch) =>
        deps.db.transaction().execute(async (trx) => {
          for (const { table, id, count } of batch) {
            await trx.updateTable(table).set((eb) => ({ views: eb('views', '+', count) })).where('id', '=', id).execute();
          }
        }),
      'View counts could not be written',
      everyMs,
    );
  }

  /** One more view of `id`; answers the views not yet written for it (this one included). */
  add(table: ShareTable, id: string): number {
    const entry = this.writes.keyed(`${table}:${id}`, () => ({ table, id, count: 0 }));
    return ++entry.count;
  }

  /** Shares whose counted views wait for the next write. */
  get queued(): number {
    return this.writes.size;
  }

  /** Writes what is pending in one transaction; concurrent calls wait for the same write. */
  flush(): Promise<void> {
    return this.writes.flush();
  }
}

const counters = new WeakMap<object, ViewCounts>();

/** The app's view counter (one per app, so each test app has its own). */
export function viewCountsOf(deps: Pick<AppDeps, 'db'>): ViewCounts {
  let counter = counters.get(deps);
  if (!counter) {
    counter = new ViewCounts(deps);
    counters.set(deps, counter);
  }
  return counter;
}
