import * as v from 'valibot';

/** What a webhook can be told of; each names the object its payload carries. */
export const WEBHOOK_EVENTS = [
  'paste.created',
  'paste.viewed',
  'paste.expired',
  'file.created',
  'file.downloaded',
  'file.expired',
  'file_request.received',
  'file_request.full',
  'expense.submitted',
  'expense.decided',
  'job.finished',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event `POST /api/admin/webhooks/{id}/test` sends; no feature emits it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test' as const;

/** `json`: the signed payload as is; the others: a ready-made message for that service. */
export const WEBHOOK_FORMATS = ['json', 'discord', 'slack', 'ntfy'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** The header with the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Clipstash-Signature';

export const WEBHOOK_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 200;

/**
 * What every format is made from, and the body of the `json` format: `id` is the event's, the same on every
 * retry (a receiver can drop repeats); `data` the object, never a password, its hash or an encrypted paste's text.
 */
export interface WebhookPayload {
  id: string;
  event: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  time: string;
  data: Record<string, unknown>;
}

const nameSchema = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(WEBHOOK_NAME_MAX, 'too_long'));
const urlSchema = v.pipe(v.string(), v.trim(), v.maxLength(WEBHOOK_URL_MAX, 'too_long'), v.url('invalid_url'), v.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, 'invalid_url'));
const eventsSchema = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENTS, 'unknown_event')),
  v.minLength(1, 'required'),
  v.transform((events) => [...new Set(events)]),
);
const secretSchema = v.pipe(v.string(), v.minLength(WEBHOOK_SECRET_MIN, 'too_short'), v.maxLength(WEBHOOK_SECRET_MAX, 'too_long'));

export const createWebhookRequestSchema = v.object({
  name: nameSchema,
  url: urlSchema,
  events: eventsSchema,
  format: v.optional(v.picklist(WEBHOOK_FORMATS), 'json'),
  /** Absent: the server makes one (`whsec_…`). */
  secret: v.optional(secretSchema),
  enabled: v.optional(v.boolean(), true),
});
export type CreateWebhookRequest = v.InferInput<typeof createWebhookRequestSchema>;

export const updateWebhookRequestSchema = v.partial(
  v.object({
    name: nameSchema,
    url: urlSchema,
    events: eventsSchema,
    format: v.picklist(WEBHOOK_FORMATS),
    secret: secretSchema,
    /** A new generated secret, answered once like a creation's. */
    rotateSecret: v.boolean(),
    /** Turning it on again clears the server's automatic disable. */
    enabled: v.boolean(),
  }),
);
export type UpdateWebhookRequest = v.InferInput<typeof updateWebhookRequestSchema>;

/** A webhook as listed: the secret only as its hint. */
export const webhookSchema = v.object({
  id: v.string(),
  name: v.string(),
  url: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENTS)),
  format: v.picklist(WEBHOOK_FORMATS),
  secretHint: v.string(),
  enabled: v.boolean(),
  /** Failed attempts in a row. */
  failureStreak: v.number(),
  /** `failures`: the server turned it off after failing deliveries; null otherwise. */
  disabledReason: v.nullable(v.picklist(['failures'])),
  disabledAt: v.nullable(v.string()),
  /** Events waiting for delivery. */
  pending: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Webhook = v.InferOutput<typeof webhookSchema>;

export const webhookListSchema = v.object({ items: v.array(webhookSchema) });

/** A creation's answer (or a secret's rotation): the only one that holds the whole secret. */
export const webhookWithSecretSchema = v.object({ ...webhookSchema.entries, secret: v.string() });
export type WebhookWithSecret = v.InferOutput<typeof webhookWithSecretSchema>;

export const webhookDeliverySchema = v.object({
  id: v.number(),
  eventId: v.string(),
  event: v.string(),
  attempt: v.number(),
  /** The receiver's HTTP status; null when none came. */
  statusCode: v.nullable(v.number()),
  /** Why none came: `timeout`, `refused` (the address guard), `network`, `secret_unreadable` (sealed under another key). */
  error: v.nullable(v.string()),
  ok: v.boolean(),
  durationMs: v.number(),
  deliveredAt: v.string(),
});
export type WebhookDelivery = v.InferOutput<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = v.object({ items: v.array(webhookDeliverySchema) });
