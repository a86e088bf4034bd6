import { Hono } from 'hono';
import { createApiKeyRequestSchema, updateApiKeyRequestSchema } from '../../../contract/api-keys';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok } from '../../http';
import { requireAdmin } from './middleware';
import { keepUncompressed } from '../../middleware/compression';
import { createApiKey, deleteApiKey, listApiKeys, updateApiKey } from './api-keys';

/** `/api/admin/api-keys`: admins only. */
export function apiKeyRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  // The creation's answer holds a whole key (the only one that does): never compressed, nor are the others here.
  app.use('*', keepUncompressed);

  app.get('/', async (c) => ok(c, await listApiKeys(deps)));

  app.post('/', jsonBody(createApiKeyRequestSchema), async (c) =>
    ok(c, await createApiKey(deps, c.req.valid('json')), 'api_key_created', 201),
  );

  app.put('/:id', jsonBody(updateApiKeyRequestSchema), async (c) =>
    ok(c, await updateApiKey(deps, c.req.param('id'), c.req.valid('json')), 'api_key_updated'),
  );

  app.delete('/:id', async (c) => {
    await deleteApiKey(deps, c.req.param('id'));
    return ok(c, null, 'api_key_deleted');
  });

  return app;
}
