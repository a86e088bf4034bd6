import * as v from 'valibot';
import { webhookDeliveryListSchema, webhookDeliverySchema, webhookListSchema, webhookSchema, webhookWithSecretSchema } from '../../../contract/webhooks';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'Webhooks';

export const webhookDocs: RouteDocs = {
  'GET /api/admin/webhooks': { tag, summary: 'List webhooks', description: 'Secrets appear only as their hint.', data: webhookListSchema },
  'POST /api/admin/webhooks': {
    tag,
    summary: 'Create a webhook',
    description:
      'The URL passes the same address guard as URL uploads (no private or loopback address unless `ALLOW_PRIVATE_URLS=1`). ' +
      'The answer is the only one that holds the whole `secret` (a generated `whsec_…` unless one is given). Every POST ' +
      'carries `X-Clipstash-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`; see docs/webhooks.md.',
    data: webhookWithSecretSchema,
    ok: [201],
  },
  'PUT /api/admin/webhooks/:id': {
    tag,
    summary: 'Change a webhook',
    description: 'With `secret` or `rotateSecret` the answer holds the new secret once. `enabled: true` clears an automatic disable.',
    data: v.union([webhookWithSecretSchema, webhookSchema]),
    errors: [404],
  },
  'DELETE /api/admin/webhooks/:id': { tag, summary: 'Delete a webhook', description: 'Its undelivered events and its log go with it.', data: v.null(), errors: [404] },
  'GET /api/admin/webhooks/:id/deliveries': {
    tag,
    summary: 'A webhook\'s delivery log',
    description: 'Its last 50 attempts, newest first: status code or failure, response time.',
    data: webhookDeliveryListSchema,
    errors: [404],
  },
  'POST /api/admin/webhooks/:id/test': {
    tag,
    summary: 'Send a test event',
    description: 'One signed `webhook.test` POST now, outside the outbox; answers how it went (also in the log).',
    data: webhookDeliverySchema,
    errors: [404],
  },
};
