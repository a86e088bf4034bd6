import { performance } from 'node:perf_hooks';
import type { Selectable } from 'kysely';
import { WEBHOOK_SIGNATURE_HEADER, type WebhookPayload } from '../../../contract/webhooks';
import type { AppDeps } from '../../context';
import { holdLease, releaseLease } from '../../db/leases';
import type { WebhookOutboxTable } from '../../db/schema';
import { safeFetch, UrlFetchError, UrlRefusedError } from '../../net/safe-fetch';
import { APP_VERSION } from '../../version';
import { bodyFor } from './formats';
import type { WebhookRow } from './records';
import { signatureHeader } from './signature';
import { log } from '../../observability/log';

type OutboxRow = Selectable<WebhookOutboxTable>;

export const WEBHOOK_DELIVERY_LEASE = 'webhook-delivery';
const LEASE_MS = 2 * 60_000;
/** How often the leader looks for retries that came due, and for events other instances wrote. */
const POLL_MS = 5000;
const HOUR = 3_600_000;
/** Retries go on this long after the event; then it is dropped (its attempts stay in the log). */
export const RETRY_FOR_MS = 24 * HOUR;
/** A webhook that failed this many times in a row, or for RETRY_FOR_MS, is turned off. */
export const DISABLE_AFTER_FAILURES = 20;
/** Attempts kept in each webhook's delivery log. */
export const DELIVERIES_KEPT = 50;
const TIMEOUT_MS = 10_000;
const USER_AGENT = `Clipstash/${APP_VERSION} (webhook)`;

/** Waits before attempt n+1 after n failed: 10 s, 20 s, 40 s… capped at an hour. */
export const backoffMs = (failedAttempts: number) => Math.min(HOUR, 10_000 * 2 ** (failedAttempts - 1));

/** What one POST came to. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const succeeded = (result: AttemptResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

class UnreadableSecret extends Error {}

function failureKind(error: unknown): string {
  if (error instanceof UnreadableSecret) return 'secret_unreadable';
  if (error instanceof UrlRefusedError) return 'refused';
  if (error instanceof UrlFetchError) return error.kind === 'timeout' ? 'timeout' : 'network';
  return 'network';
}

/**
 * Delivers the outbox: each webhook's events in the order they happened, one at a time (a failed one holds back those
 * after it, and is retried with back-off); one instance at a time, under a lease. Every attempt goes into the
 * webhook's delivery log; a streak of failures turns the webhook off.
 */
export class WebhookDelivery {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: AppDeps) {}

  /** Polls for due retries until stop(). */
  start(everyMs = POLL_MS): void {
    this.timer ??= setInterval(() => this.nudge(), everyMs);
    this.timer.unref();
    this.nudge();
  }

  /** Stops polling, waits for the attempt under way, and lets another instance take over at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await releaseLease(this.deps.db, WEBHOOK_DELIVERY_LEASE).catch(() => undefined);
  }

  nudge(): void {
    this.deliverDue().catch((error: unknown) => log.error({ err: error }, 'Delivering webhooks failed'));
  }

  /** Delivers everything due now; a call while a pass runs makes it run once more, and waits for that. */
  deliverDue(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async pass(): Promise<void> {
    const { db } = this.deps;
    if (!(await holdLease(db, WEBHOOK_DELIVERY_LEASE, this.deps.now(), LEASE_MS))) return;
    const webhookIds = await db
      .selectFrom('webhook_outbox')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_outbox.webhook_id')
      .select('webhook_outbox.webhook_id')
      .distinct()
      .where('webhooks.enabled', '=', 1)
      .where('webhook_outbox.next_attempt_at', '<=', this.deps.now().toISOString())
      .execute();
    // Webhooks go side by side: a slow receiver holds back only its own events.
    await Promise.all(webhookIds.map(({ webhook_id }) => this.drain(webhook_id)));
  }

  /** Sends one webhook's events oldest first until one fails, one is not due yet, or none is left. */
  private async drain(webhookId: string): Promise<void> {
    const { db } = this.deps;
    for (;;) {
      const webhook = await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).where('enabled', '=', 1).executeTakeFirst();
      if (!webhook) return;
      const row = await db.selectFrom('webhook_outbox').selectAll().where('webhook_id', '=', webhookId).orderBy('id').limit(1).executeTakeFirst();
      if (!row || row.next_attempt_at > this.deps.now().toISOString()) return;
      await holdLease(db, WEBHOOK_DELIVERY_LEASE, this.deps.now(), LEASE_MS);
      const result = await this.attempt(webhook, JSON.parse(row.payload) as WebhookPayload, row.attempts + 1);
      if (succeeded(result)) {
        await db.deleteFrom('webhook_outbox').where('id', '=', row.id).execute();
        if (webhook.failure_streak > 0) await db.updateTable('webhooks').set({ failure_streak: 0, failing_since: null }).where('id', '=', webhookId).execute();
        continue;
      }
      await this.failed(webhook, row);
      return;
    }
  }

  /** A failed attempt: retried later or given up, and the webhook turned off after too many in a row. */
  private async failed(webhook: WebhookRow, row: OutboxRow) {
    const { db } = this.deps;
    const now = this.deps.now();
    const attempts = row.attempts + 1;
    if (now.getTime() - new Date(row.created_at).getTime() >= RETRY_FOR_MS) {
      await db.deleteFrom('webhook_outbox').where('id', '=', row.id).execute();
    } else {
      const next = new Date(now.getTime() + backoffMs(attempts)).toISOString();
      await db.updateTable('webhook_outbox').set({ attempts, next_attempt_at: next }).where('id', '=', row.id).execute();
    }
    const streak = webhook.failure_streak + 1;
    const failingSince = webhook.failing_since ?? now.toISOString();
    const giveUp = streak >= DISABLE_AFTER_FAILURES || now.getTime() - new Date(failingSince).getTime() >= RETRY_FOR_MS;
    await db
      .updateTable('webhooks')
      .set({
        failure_streak: streak,
        failing_since: failingSince,
        ...(giveUp && { enabled: 0, disabled_reason: 'failures', disabled_at: now.toISOString() }),
      })
      .where('id', '=', webhook.id)
      .execute();
  }

  /** One signed POST of the payload in the webhook's format, logged whatever it came to. */
  async attempt(webhook: WebhookRow, payload: WebhookPayload, attempt: number): Promise<AttemptResult> {
    const { body, contentType, headers } = bodyFor(webhook.format, payload);
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const secret = this.openSecret(webhook);
      const response = await safeFetch(
        webhook.url,
        {
          method: 'POST',
          body,
          headers: {
            ...headers,
            'Content-Type': contentType,
            'User-Agent': USER_AGENT,
            'X-Clipstash-Event': payload.event,
            'X-Clipstash-Delivery': payload.id,
            [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, body, this.deps.now()),
          },
        },
        { connectTimeoutMs: TIMEOUT_MS, idleTimeoutMs: TIMEOUT_MS, ...this.deps.urlFetch, allowPrivate: this.deps.config.allowPrivateUrls },
      );
      // The answer's body tells nothing we keep: read and dropped, so the connection closes cleanly.
      response.body.resume();
      statusCode = response.status;
    } catch (failure) {
      error = failureKind(failure);
    }
    const result = { statusCode, error, durationMs: Math.round(performance.now() - started) };
    await this.log(webhook.id, payload, attempt, result);
    return result;
  }

  /** Sealed under another ENCRYPTION_KEY, a secret cannot be read: a failure of this webhook, not of the delivery. */
  private openSecret(webhook: WebhookRow): string {
    try {
      return this.deps.secrets.open(webhook.secret_sealed);
    } catch {
      throw new UnreadableSecret();
    }
  }

  private async log(webhookId: string, payload: WebhookPayload, attempt: number, result: AttemptResult) {
    const { db } = this.deps;
    await db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: webhookId,
        event_id: payload.id,
        event: payload.event,
        attempt,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
        delivered_at: this.deps.now().toISOString(),
      })
      .execute();
    // The log stays bounded: only the newest DELIVERIES_KEPT attempts of each webhook.
    const oldestKept = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .offset(DELIVERIES_KEPT - 1)
      .limit(1)
      .executeTakeFirst();
    if (oldestKept) await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).where('id', '<', oldestKept.id).execute();
  }
}

const deliveries = new WeakMap<object, WebhookDelivery>();

/** The app's webhook delivery (one per app, so each test app has its own). */
export function deliveryOf(deps: AppDeps): WebhookDelivery {
  let delivery = deliveries.get(deps);
  if (!delivery) {
    delivery = new WebhookDelivery(deps);
    deliveries.set(deps, delivery);
  }
  return delivery;
}
