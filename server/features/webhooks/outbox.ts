import type { WebhookPayload } from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import { eventsOf } from './records';

/** An event on its way to the outbox; `onceKey`: announced once ever (a share's expiry), else dropped. */
export interface OutgoingEvent {
  payload: WebhookPayload & { event: Exclude<WebhookPayload['event'], 'webhook.test'> };
  onceKey?: string;
}

/** Every event some enabled webhook takes. */
export async function enabledWebhookEvents(deps: AppDeps): Promise<ReadonlySet<string>> {
  const webhooks = await deps.db.selectFrom('webhooks').select('events').where('enabled', '=', 1).execute();
  return new Set(webhooks.flatMap((webhook) => eventsOf(webhook)));
}

/**
 * Writes a batch of events into the outbox, one row per enabled webhook that listens to each, in one transaction
 * and in the order they happened (the outbox's ids keep it). Answers how many rows it wrote.
 */
export async function writeToOutbox(deps: AppDeps, batch: readonly OutgoingEvent[]): Promise<number> {
  const webhooks = await deps.db.selectFrom('webhooks').select(['id', 'events']).where('enabled', '=', 1).execute();
  if (webhooks.length === 0) return 0;
  const listeners = webhooks.map((webhook) => ({ id: webhook.id, events: new Set(eventsOf(webhook)) }));
  const now = deps.now().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    let written = 0;
    for (const { payload, onceKey } of batch) {
      const targets = listeners.filter((webhook) => webhook.events.has(payload.event));
      if (targets.length === 0) continue;
      if (onceKey !== undefined) {
        const claimed = await trx
          .insertInto('webhook_announced')
          .values({ key: onceKey, created_at: now })
          .onConflict((conflict) => conflict.column('key').doNothing())
          .executeTakeFirst();
        if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) continue;
      }
      const body = JSON.stringify(payload);
      await trx
        .insertInto('webhook_outbox')
        .values(
          targets.map((webhook) => ({
            webhook_id: webhook.id,
            event_id: payload.id,
            event: payload.event,
            payload: body,
            attempts: 0,
            next_attempt_at: now,
            created_at: now,
          })),
        )
        .execute();
      written += targets.length;
    }
    return written;
  });
}
