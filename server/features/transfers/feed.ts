import type { LiveTransfer } from '../../../contract/jobs';
import type { AppDeps } from '../../context';
import { othersSince } from './records';
import { transfersOf, type TransferListener, type TransferRegistry } from './registry';
import { log } from '../../observability/log';

/** How often a watched instance reads what the others wrote. */
export const OTHERS_POLL_MS = 1000;
/** Each read looks back this far: a row written late (a slow transaction, a clock a little behind) is still seen. */
const LOOK_BACK_MS = 5000;

/**
 * Every instance's transfers as they change, for the admin's event stream: this instance's from its registry at
 * once, the others' from their rows, read about once a second while someone watches.
 */
export class TransferFeed {
  private readonly listeners = new Set<TransferListener>();
  private readonly seen = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private unsubscribeLocal: (() => void) | undefined;
  private polling = false;

  constructor(
    private readonly deps: Pick<AppDeps, 'db' | 'now'>,
    private readonly registry: TransferRegistry,
    private readonly everyMs = OTHERS_POLL_MS,
  ) {}

  /** How many streams watch now: a closed stream must leave (and the polling stop with the last). */
  get watching(): number {
    return this.listeners.size;
  }

  subscribe(listener: TransferListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.begin();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private begin() {
    this.unsubscribeLocal = this.registry.subscribe((transfer) => this.announce(transfer));
    this.timer = setInterval(() => void this.pollOthers(), this.everyMs);
    this.timer.unref?.();
  }

  private stop() {
    this.unsubscribeLocal?.();
    clearInterval(this.timer);
    this.timer = undefined;
    this.seen.clear();
  }

  private announce(transfer: LiveTransfer) {
    for (const listener of this.listeners) listener(transfer);
  }

  private async pollOthers() {
    if (this.polling) return;
    this.polling = true;
    try {
      const since = new Date(this.deps.now().getTime() - LOOK_BACK_MS).toISOString();
      for (const transfer of await othersSince(this.deps.db, this.registry.instance, since)) {
        const version = `${transfer.updatedAt}|${transfer.bytesDone}|${transfer.outcome}`;
        if (this.seen.get(transfer.id) === version) continue;
        this.seen.set(transfer.id, version);
        this.announce(transfer);
      }
      for (const [id, version] of this.seen) if (version < since) this.seen.delete(id);
    } catch (error) {
      log.error({ err: error }, 'Reading other instances\' transfers failed');
    } finally {
      this.polling = false;
    }
  }
}

const feeds = new WeakMap<object, TransferFeed>();

/** The app's feed (one per app, over its registry). */
export function transferFeedOf(deps: Pick<AppDeps, 'db' | 'now'>): TransferFeed {
  let feed = feeds.get(deps);
  if (!feed) {
    feed = new TransferFeed(deps, transfersOf(deps));
    feeds.set(deps, feed);
  }
  return feed;
}
