import { Hono } from 'hono';
import { createMountRequestSchema, updateMountRequestSchema } from '../../../contract/mounts';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok } from '../../http';
import { requireAdmin, requirePermission } from '../auth/middleware';
import { createMount, deleteMount, getMount, listMounts, updateMount } from './mounts';

/** `/admin/mounts`: admins manage mounts. Keys get 403 there: they may never create, change or switch one. */
export function adminMountRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  app.get('/', async (c) => ok(c, await listMounts(deps, c.get('principal'))));
  app.post('/', jsonBody(createMountRequestSchema), async (c) =>
    ok(c, await createMount(deps, c.get('principal'), c.req.valid('json')), 'mount_created', 201),
  );
  app.get('/:id', async (c) => ok(c, await getMount(deps, c.get('principal'), c.req.param('id'))));
  app.put('/:id', jsonBody(updateMountRequestSchema), async (c) =>
    ok(c, await updateMount(deps, c.get('principal'), c.req.param('id'), c.req.valid('json')), 'mount_updated'),
  );
  app.delete('/:id', async (c) => {
    await deleteMount(deps, c.req.param('id'));
    return ok(c, null, 'mount_deleted');
  });
  return app;
}

/** `/user/mounts`: the active mounts a key's base path reaches (read only). */
export function userMountRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requirePermission('mount'));
  app.get('/', async (c) => ok(c, await listMounts(deps, c.get('principal'))));
  app.get('/:id', async (c) => ok(c, await getMount(deps, c.get('principal'), c.req.param('id'))));
  return app;
}
