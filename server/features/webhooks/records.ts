import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type * as v from 'valibot';
import {
  WEBHOOK_EVENTS,
  type createWebhookRequestSchema,
  type updateWebhookRequestSchema,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookWithSecret,
} from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import type { WebhookDeliveriesTable, WebhooksTable } from '../../db/schema';
import { notFound } from '../../errors';
import { checkUrl } from '../../net/safe-fetch';
import { urlProblem } from '../file-shares/url-uploads';
import { newWebhookSecret, secretHint } from './signature';

export type WebhookRow = Selectable<WebhooksTable>;
type CreateInput = v.InferOutput<typeof createWebhookRequestSchema>;
type UpdateInput = v.InferOutput<typeof updateWebhookRequestSchema>;

const webhookNotFound = () => notFound('webhook_not_found');

export const eventsOf = (row: Pick<WebhookRow, 'events'>): WebhookEvent[] =>
  (JSON.parse(row.events) as string[]).filter((event): event is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(event));

/** The SSRF guard of URL uploads, at saving already: a refused address is a 400 naming why, not a failing log later. */
async function assertReachable(deps: AppDeps, url: string) {
  try {
    await checkUrl(new URL(url), { ...deps.urlFetch, allowPrivate: deps.config.allowPrivateUrls });
  } catch (error) {
    throw urlProblem(error);
  }
}

function toWebhook(row: WebhookRow, pending: number): Webhook {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: eventsOf(row),
    format: row.format,
    secretHint: row.secret_hint,
    enabled: row.enabled === 1,
    failureStreak: row.failure_streak,
    disabledReason: row.disabled_reason === 'failures' ? 'failures' : null,
    disabledAt: row.disabled_at,
    pending,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function pendingCounts(deps: AppDeps): Promise<Map<string, number>> {
  const rows = await deps.db
    .selectFrom('webhook_outbox')
    .select((eb) => ['webhook_id', eb.fn.countAll<number>().as('pending')])
    .groupBy('webhook_id')
    .execute();
  return new Map(rows.map((row) => [row.webhook_id, Number(row.pending)]));
}

export async function findWebhook(deps: AppDeps, id: string): Promise<WebhookRow> {
  const row = await deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw webhookNotFound();
  return row;
}

export async function listWebhooks(deps: AppDeps): Promise<{ items: Webhook[] }> {
  const rows = await deps.db.selectFrom('webhooks').selectAll().orderBy('created_at').orderBy('id').execute();
  const pending = await pendingCounts(deps);
  return { items: rows.map((row) => toWebhook(row, pending.get(row.id) ?? 0)) };
}

async function presented(deps: AppDeps, id: string): Promise<Webhook> {
  return toWebhook(await findWebhook(deps, id), (await pendingCounts(deps)).get(id) ?? 0);
}

const sealedSecret = (deps: AppDeps, secret: string) => ({ secret_sealed: deps.secrets.seal(secret), secret_hint: secretHint(secret) });

export async function createWebhook(deps: AppDeps, input: CreateInput): Promise<WebhookWithSecret> {
  await assertReachable(deps, input.url);
  const secret = input.secret ?? newWebhookSecret();
  const now = deps.now().toISOString();
  const id = randomUUID();
  await deps.db
    .insertInto('webhooks')
    .values({
      id,
      name: input.name,
      url: input.url,
      events: JSON.stringify(input.events),
      format: input.format,
      ...sealedSecret(deps, secret),
      enabled: input.enabled ? 1 : 0,
      failure_streak: 0,
      failing_since: null,
      disabled_reason: null,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { ...(await presented(deps, id)), secret };
}

/** Answers the new secret when one was set or rotated (shown once, as at creation). */
export async function updateWebhook(deps: AppDeps, id: string, input: UpdateInput): Promise<Webhook | WebhookWithSecret> {
  await findWebhook(deps, id);
  if (input.url !== undefined) await assertReachable(deps, input.url);
  const secret = input.secret ?? (input.rotateSecret ? newWebhookSecret() : undefined);
  await deps.db
    .updateTable('webhooks')
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: JSON.stringify(input.events) }),
      ...(input.format !== undefined && { format: input.format }),
      ...(secret !== undefined && sealedSecret(deps, secret)),
      // Turned on again (or off by hand): the failures that turned it off are history.
      ...(input.enabled !== undefined && { enabled: input.enabled ? 1 : 0, failure_streak: 0, failing_since: null, disabled_reason: null, disabled_at: null }),
      updated_at: deps.now().toISOString(),
    })
    .where('id', '=', id)
    .execute();
  const webhook = await presented(deps, id);
  return secret === undefined ? webhook : { ...webhook, secret };
}

/** Its outbox and delivery log go with it (foreign keys cascade). */
export async function deleteWebhook(deps: AppDeps, id: string): Promise<void> {
  const result = await deps.db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw webhookNotFound();
}

export function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  const status = row.status_code;
  return {
    id: Number(row.id),
    eventId: row.event_id,
    event: row.event,
    attempt: row.attempt,
    statusCode: status,
    error: row.error,
    ok: status !== null && status >= 200 && status < 300,
    durationMs: row.duration_ms,
    deliveredAt: row.delivered_at,
  };
}

/** The webhook's last deliveries, newest first (the log keeps DELIVERIES_KEPT of them). */
export async function listDeliveries(deps: AppDeps, id: string): Promise<{ items: WebhookDelivery[] }> {
  await findWebhook(deps, id);
  const rows = await deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', id).orderBy('id', 'desc').execute();
  return { items: rows.map(toDelivery) };
}
