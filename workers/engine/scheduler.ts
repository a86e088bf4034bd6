import { DEFAULT_CONCURRENCY, type TransferConcurrency } from '../../contract/transfer';
import { cancelled, type TransferFailure } from './failure';

interface Waiter {
  uploadId: string;
  sequence: number;
  grant: (release: () => void) => void;
  refuse: (error: TransferFailure) => void;
}

/**
 * One concurrency budget shared by every task: at most `perUpload` requests in flight for one upload and
 * `global` in all. Uploads that already started are served before new ones, so work in progress finishes
 * first instead of everything advancing slowly at once.
 */
export class Scheduler {
  private inFlight = 0;
  private readonly inFlightBy = new Map<string, number>();
  private readonly started = new Set<string>();
  private readonly waiting: Waiter[] = [];
  private sequence = 0;

  private global: number;
  private perUpload: number;

  constructor(limits: TransferConcurrency = DEFAULT_CONCURRENCY) {
    this.global = limits.global;
    this.perUpload = limits.perUpload;
  }

  /**
   * New limits, for the requests granted from now on: a lower limit lets the requests in flight finish (none is
   * cut), a higher one grants waiting requests at once.
   */
  configure(limits: TransferConcurrency) {
    this.global = Math.max(1, Math.floor(limits.global));
    this.perUpload = Math.max(1, Math.floor(limits.perUpload));
    this.pump();
  }

  /** Resolves with a release function once a slot is free; a cancelled wait rejects with `cancelled`. */
  acquire(uploadId: string, signal?: AbortSignal): Promise<() => void> {
    return new Promise((grant, refuse) => {
      if (signal?.aborted) return refuse(cancelled());
      const waiter: Waiter = { uploadId, sequence: this.sequence++, grant, refuse };
      this.waiting.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) {
            this.waiting.splice(index, 1);
            refuse(cancelled());
          }
        },
        { once: true },
      );
      this.pump();
    });
  }

  /** Forget an upload that ended (its slots are already released). */
  finish(uploadId: string) {
    this.started.delete(uploadId);
  }

  get active(): number {
    return this.inFlight;
  }

  private pump() {
    while (this.inFlight < this.global) {
      const next = this.nextWaiter();
      if (!next) return;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      this.inFlight++;
      this.inFlightBy.set(next.uploadId, (this.inFlightBy.get(next.uploadId) ?? 0) + 1);
      this.started.add(next.uploadId);
      let released = false;
      next.grant(() => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.inFlightBy.set(next.uploadId, (this.inFlightBy.get(next.uploadId) ?? 1) - 1);
        this.pump();
      });
    }
  }

  private nextWaiter(): Waiter | undefined {
    let best: Waiter | undefined;
    for (const waiter of this.waiting) {
      if ((this.inFlightBy.get(waiter.uploadId) ?? 0) >= this.perUpload) continue;
      if (!best) best = waiter;
      else {
        const startedFirst = Number(this.started.has(waiter.uploadId)) - Number(this.started.has(best.uploadId));
        if (startedFirst > 0 || (startedFirst === 0 && waiter.sequence < best.sequence)) best = waiter;
      }
    }
    return best;
  }
}
