import type { AppDeps } from '../../context';
import { log } from '../../observability/log';

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
  private readonly pending = new Map<string, { table: ShareTable; id: string; count: number }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: Pick<AppDeps, 'db'>,
    private readonly everyMs = VIEW_FLUSH_MS,
  ) {}

  /** One more view of `id`; answers the views not yet written for it (this one included). */
  add(table: ShareTable, id: string): number {
    const key = `${table}:${id}`;
    const entry = this.pending.get(key) ?? { table, id, count: 0 };
    entry.count++;
    this.pending.set(key, entry);
    // Timers do not keep the process (or a test run) alive: shutdown flushes.
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs);
    this.timer.unref?.();
    return entry.count;
  }

  /** Shares whose counted views wait for the next write. */
  get queued(): number {
    return this.pending.size;
  }

  /** Writes what is pending in one transaction; concurrent calls wait for the same write. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.flushing
      .then(() =>
        this.deps.db.transaction().execute(async (trx) => {
          for (const { table, id, count } of batch) {
            await trx.updateTable(table).set((eb) => ({ views: eb('views', '+', count) })).where('id', '=', id).execute();
          }
        }),
      )
      // A failed write (the database closing under it) loses these counts, not the next ones.
      .catch((error: unknown) => log.error({ err: error }, 'View counts could not be written'));
    return this.flushing;
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
