import { Hono } from 'hono';
import { createStorageConfigRequestSchema, updateStorageConfigRequestSchema } from '../../../contract/storage';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok, publicBaseUrl } from '../../http';
import { requireAdmin, requirePermission } from '../auth/middleware';
import {
  createStorageConfig,
  deleteStorageConfig,
  findStorageConfig,
  getStorageConfig,
  listStorageConfigs,
  setDefaultStorageConfig,
  storageConfigNotFound,
  updateStorageConfig,
} from './configs';
import { testStorageConfig } from './connection-test';

/** `/api/s3-configs`: reads for admins and file-permission keys (public configs only), writes for admins. */
export function storageConfigRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', requirePermission('file'), async (c) => ok(c, await listStorageConfigs(deps, c.get('principal'))));

  app.get('/:id', requirePermission('file'), async (c) => ok(c, await getStorageConfig(deps, c.get('principal'), c.req.param('id'))));

  app.post('/', requireAdmin, jsonBody(createStorageConfigRequestSchema), async (c) =>
    ok(c, await createStorageConfig(deps, c.get('principal'), c.req.valid('json')), 'storage_config_created', 201),
  );

  app.put('/:id', requireAdmin, jsonBody(updateStorageConfigRequestSchema), async (c) =>
    ok(c, await updateStorageConfig(deps, c.get('principal'), c.req.param('id'), c.req.valid('json')), 'storage_config_updated'),
  );

  app.delete('/:id', requireAdmin, async (c) => {
    await deleteStorageConfig(deps, c.req.param('id'));
    return ok(c, null, 'storage_config_deleted');
  });

  app.put('/:id/set-default', requireAdmin, async (c) =>
    ok(c, await setDefaultStorageConfig(deps, c.get('principal'), c.req.param('id')), 'storage_config_default_set'),
  );

  app.post('/:id/test', requireAdmin, async (c) => {
    const config = await findStorageConfig(deps.db, c.req.param('id'));
    if (!config) throw storageConfigNotFound();
    const result = await testStorageConfig(deps, config, publicBaseUrl(c, deps), c.get('lang'));
    const passed = Object.values(result.checks).filter((check) => check.ok).length;
    return ok(c, result, 'storage_test_finished', 200, { passed, total: Object.keys(result.checks).length });
  });

  return app;
}
