import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import { enabledWebhookEvents, writeToOutbox, type OutgoingEvent } from '../webhooks/outbox';
import { deliveryOf } from '../webhooks/delivery';
import { BatchedWrites } from '../../db/batched-writes';

/** How often queued events reach the outbox, as view counts reach their rows (shares/view-counts.ts). */
export const EVENT_FLUSH_MS = 1000;
/** A burst larger than this is written at once rather than held in memory. */
const EVENTS_HELD = 1000;
/** How long the events the enabled webhooks take, once read, are trusted: a webhook saved elsewhere hears within it. */
const LISTENED_FRESH_MS = 1000;

/**
 * What happened, for whoever listens (webhooks). Features call emitEvent and go on: the event is queued in memory and
 * written to the outbox with the others of the last second in one transaction (and at shutdown), so a read that
 * emits one (a view, a download) never waits on a write. A crash loses at most the last second of events.
 */
export class EventBus {
  private readonly writes: BatchedWrites<OutgoingEvent>;
  /** The events some enabled webhook takes, and when they were read (performance.now()). */
  private listened: { events: ReadonlySet<string>; readAt: number } | undefined;
  private reading: Promise<void> | undefined;
  /** Bumped when a webhook is saved here, so that a read begun before the save is not kept. */
  private generation = 0;

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
    if (!this.mayBeHeard(event)) return;
    this.writes.add({ payload: { id: randomUUID(), event, time: this.deps.now().toISOString(), data }, ...(onceKey !== undefined && { onceKey }) });
  }

  /** A webhook was saved on this instance: the events read before may no longer be all that are taken. */
  forgetListened(): void {
    this.generation++;
    this.listened = undefined;
  }

  /**
   * Whether some enabled webhook may take `event`. One that none takes is dropped here rather than queued and dropped
   * at the outbox, so that a read pays nothing for webhooks nobody set up. Until the webhooks are read (again, once
   * what was read is LISTENED_FRESH_MS old), every event is queued and the outbox decides.
   */
  private mayBeHeard(event: WebhookEvent): boolean {
    const listened = this.listened;
    if (listened && performance.now() - listened.readAt < LISTENED_FRESH_MS) return listened.events.has(event);
    this.readListened();
    return true;
  }

  private readListened(): void {
    if (this.reading) return;
    const generation = this.generation;
    const readAt = performance.now();
    this.reading = enabledWebhookEvents(this.deps)
      .then((events) => {
        if (generation === this.generation) this.listened = { events, readAt };
      })
      // Unread, every event is queued: the outbox's own read decides, and logs a failure there.
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
      });
  }

  /** Writes what is queued (once the webhooks being read are known); concurrent calls wait for the same write. */
  async flush(): Promise<void> {
    await this.reading;
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
