import { randomUUID } from 'node:crypto';
import { WEBHOOK_TEST_EVENT, type WebhookDelivery } from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import { deliveryOf } from './delivery';
import { findWebhook, toDelivery } from './records';

/**
 * "Send test event": one signed POST now, outside the outbox (it does not wait behind events being retried, and is not
 * retried itself), logged like any delivery and answered. A disabled webhook can be tested before it is turned on.
 */
export async function sendTestEvent(deps: AppDeps, id: string): Promise<WebhookDelivery> {
  const webhook = await findWebhook(deps, id);
  const payload = { id: randomUUID(), event: WEBHOOK_TEST_EVENT, time: deps.now().toISOString(), data: { webhook: { id: webhook.id, name: webhook.name } } };
  await deliveryOf(deps).attempt(webhook, payload, 1);
  const logged = await deps.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', id)
    .where('event_id', '=', payload.id)
    .executeTakeFirstOrThrow();
  return toDelivery(logged);
}
