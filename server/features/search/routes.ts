import { Hono } from 'hono';
import { fsSearchQuerySchema, rebuildIndexRequestSchema, updateIndexRequestSchema } from '../../../contract/search';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok, queryParams } from '../../http';
import { requireAdmin, requirePermission } from '../auth/middleware';
import { callerOf } from '../fs/resolve';
import { searchFs } from './fs-search';
import { listIndexes, rebuildIndex, updateIndex } from './index-admin';

/** `/{admin,user}/fs/search`: names in the indexes of the mounts the caller sees, within its base path. */
export function fsSearchRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  app.get('/search', kind === 'admin' ? requireAdmin : requirePermission('mount'), queryParams(fsSearchQuerySchema), async (c) =>
    ok(c, await searchFs(deps, callerOf(c.get('principal')), c.req.valid('query'), c.get('lang'))),
  );
  return app;
}

/** `/admin/fs/index`: the mounts' indexes, their rebuild and rescan schedule. */
export function fsIndexRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  app.get('/', async (c) => ok(c, await listIndexes(deps, c.get('lang'))));
  app.post('/rebuild', jsonBody(rebuildIndexRequestSchema), async (c) =>
    ok(c, await rebuildIndex(deps, c.req.valid('json').mountId, c.get('lang')), 'fs_index_rebuilding', 202),
  );
  app.put('/:mountId', jsonBody(updateIndexRequestSchema), async (c) =>
    ok(c, await updateIndex(deps, c.req.param('mountId'), c.req.valid('json').rescanMinutes, c.get('lang')), 'fs_index_updated'),
  );
  return app;
}
