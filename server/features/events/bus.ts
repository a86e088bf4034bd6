import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import { writeToOutbox, type OutgoingEvent } from '../webhooks/outbox';
import { deliveryOf } from '../webhooks/delivery';
import { BatchedWrites } from '../../db/batched-writes';

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
  private readonly writes: BatchedWrites<OutgoingEvent>;

  constructor(
    private readonly deps: AppDeps,
    everyMs = EVENT_FLUSH_MS,
  ) {
    this.writes = new BatchedWrites(
      async (batch) => {
        // Delivery is nudged once the events are in the outbox.
        if ((await writeToOutbox(deps, batch)) > 0) deliveryOf(deps).nudge();
      },
      'Events could not be written to the webhook outbox',
      everyMs,
      EVENTS_HELD,
    );
  }

  emit(event: WebhookEvent, data: Record<string, unknown>, onceKey?: string): void {
    this.writes.add({ payload: { id: randomUUID(), event, time: this.deps.now().toISOString(), data }, ...(onceKey !== undefined && { onceKey }) });
  }

  /** Writes what is queued; concurrent calls wait for the same write. */
  flush(): Promise<void> {
    return this.writes.flush();
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
