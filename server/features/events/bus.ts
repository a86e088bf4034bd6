import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import { writeToOutbox, type OutgoingEvent } from '../webhooks/outbox';
import { deliveryOf } from '../webhooks/delivery';
import { log } from '../../observability/log';

/** How often queued events reach the outbox, as view counts reach their rows (shares/view-counts.ts). */
export const EVENT_FLUSH_MS = 1000;
/** A burst larger than this is written at once rather than held in memory. */
const EVENTS_HELD = 1000;

/**
 * What happened, for whoever listens (webhooks). Features call emitEvent and go on: the event is queued in memory and
 * written to the outbox with the others of the last second in one transaction (and at shutdown), so a read that
 * emits one (a view, a download) never waits on a write. A crash loses at most the last second of events.
 */
export class EventBus {
  private pending: OutgoingEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: AppDeps,
    private readonly everyMs = EVENT_FLUSH_MS,
  ) {}

  emit(event: WebhookEvent, data: Record<string, unknown>, onceKey?: string): void {
    this.pending.push({ payload: { id: randomUUID(), event, time: this.deps.now().toISOString(), data }, ...(onceKey !== undefined && { onceKey }) });
    if (this.pending.length >= EVENTS_HELD) {
      void this.flush();
      return;
    }
    // Timers do not keep the process (or a test run) alive: shutdown flushes.
    this.timer ??= setTimeout(() => void this.flush(), this.everyMs);
    this.timer.unref?.();
  }

  /** Writes what is queued; concurrent calls wait for the same write. Delivery is nudged after. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return this.flushing;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing
      .then(async () => {
        if ((await writeToOutbox(this.deps, batch)) > 0) deliveryOf(this.deps).nudge();
      })
      // A failed write (the database closing under it) loses these events, not the next ones.
      .catch((error: unknown) => log.error({ err: error }, 'Events could not be written to the webhook outbox'));
    return this.flushing;
  }
}

const buses = new WeakMap<object, EventBus>();

/** The app's event bus (one per app, so each test app has its own). */
export function eventBusOf(deps: AppDeps): EventBus {
  let bus = buses.get(deps);
  if (!bus) {
    bus = new EventBus(deps);
    buses.set(deps, bus);
  }
  return bus;
}

/** Tells listeners that `event` happened to `object` (built by ./objects.ts, which leaves secrets out). */
export function emitEvent(deps: AppDeps, event: WebhookEvent, object: Record<string, unknown>): void {
  eventBusOf(deps).emit(event, object);
}

/** A share found expired (opened, or swept): announced once however often its link is opened again. */
export function emitExpired(deps: AppDeps, event: 'paste.expired' | 'file.expired', object: { id: string } & Record<string, unknown>): void {
  eventBusOf(deps).emit(event, object, `${event}:${object.id}`);
}
