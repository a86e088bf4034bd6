import { Hono } from 'hono';
import { createWebhookRequestSchema, updateWebhookRequestSchema } from '../../../contract/webhooks';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok } from '../../http';
import { keepUncompressed } from '../../middleware/compression';
import { requireAdmin } from '../auth/middleware';
import { eventBusOf } from '../events/bus';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, updateWebhook } from './records';
import { sendTestEvent } from './test-event';

/** `/api/admin/webhooks`: admins only. */
export function webhookRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  // A creation's (or rotation's) answer holds the whole signing secret: never compressed, as API keys' are not.
  app.use('*', keepUncompressed);

  app.get('/', async (c) => ok(c, await listWebhooks(deps)));

  app.post('/', jsonBody(createWebhookRequestSchema), async (c) => {
    const created = await createWebhook(deps, c.req.valid('json'));
    eventBusOf(deps).forgetListened();
    return ok(c, created, 'webhook_created', 201);
  });

  app.put('/:id', jsonBody(updateWebhookRequestSchema), async (c) => {
    const updated = await updateWebhook(deps, c.req.param('id'), c.req.valid('json'));
    eventBusOf(deps).forgetListened();
    return ok(c, updated, 'webhook_updated');
  });

  app.delete('/:id', async (c) => {
    await deleteWebhook(deps, c.req.param('id'));
    return ok(c, null, 'webhook_deleted');
  });

  app.get('/:id/deliveries', async (c) => ok(c, await listDeliveries(deps, c.req.param('id'))));

  app.post('/:id/test', async (c) => ok(c, await sendTestEvent(deps, c.req.param('id')), 'webhook_test_sent'));

  return app;
}
