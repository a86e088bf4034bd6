import { log } from '../observability/log';

/**
 * Items kept in memory and written together about every `everyMs` (and whenever `flush` is called: at shutdown,
 * before a read of what they hold), so that a request that makes one only pushes onto an array. A crash loses at
 * most the last interval; a failed write (the database closing under it) loses its batch, not the next ones.
 */
export class BatchedWrites<T> {
  private pending: T[] = [];
  /** The pending items added through `keyed`, by their key. */
  private byKey = new Map<string, T>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    /** Logged when a write fails. */
    private readonly failure: string,
    private readonly everyMs: number,
    /** Past this many items held, they are written at once. */
    private readonly most = Number.POSITIVE_INFINITY,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.most) {
      void this.flush();
      return;
    }
    // Timers do not keep the process (or a test run) alive: shutdown flushes.
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs);
    this.timer.unref?.();
  }

  /**
   * The pending item under `key`, made by `make` and added when there is none yet, for the caller to count into
   * (views of a share, identical accesses). A busy share then holds one item per interval instead of one per
   * request: items held for up to a second outlive V8's young generation, and copying thousands of them into the
   * old one cost each read more than the rest of its bookkeeping.
   */
  keyed(key: string, make: () => T): T {
    let item = this.byKey.get(key);
    if (item === undefined) {
      item = make();
      this.byKey.set(key, item);
      this.add(item);
    }
    return item;
  }

  /** Items waiting for the next write. */
  get size(): number {
    return this.pending.length;
  }

  /** Writes what is pending; concurrent calls wait for the same write. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return this.flushing;
    const batch = this.pending;
    this.pending = [];
    this.byKey = new Map();
    this.flushing = this.flushing.then(() => this.write(batch)).catch((error: unknown) => log.error({ err: error }, this.failure));
    return this.flushing;
  }
}
