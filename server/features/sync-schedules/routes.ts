import { Hono } from 'hono';
import { syncScheduleRequestSchema } from '../../../contract/jobs';
import type { AppDeps, AppEnv } from '../../context';
import { jsonBody, ok } from '../../http';
import { requireAdmin } from '../auth/middleware';
import { createSchedule, deleteSchedule, dryRunSchedule, listSchedules, runSchedule, updateSchedule, type SyncJobs } from './schedules';

/** `/admin/sync-schedules`: the admin's scheduled syncs between mount paths; each run is a sync job. */
export function syncScheduleRoutes(deps: AppDeps, jobs: SyncJobs) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  app.get('/', async (c) => ok(c, await listSchedules(deps)));
  app.post('/', jsonBody(syncScheduleRequestSchema), async (c) =>
    ok(c, await createSchedule(deps, c.get('principal'), c.req.valid('json')), 'sync_schedule_created', 201),
  );
  app.put('/:id', jsonBody(syncScheduleRequestSchema), async (c) =>
    ok(c, await updateSchedule(deps, c.get('principal'), c.req.param('id'), c.req.valid('json')), 'sync_schedule_updated'),
  );
  app.delete('/:id', async (c) => {
    await deleteSchedule(deps, c.req.param('id'));
    return ok(c, null, 'sync_schedule_deleted');
  });
  app.post('/:id/run', async (c) => ok(c, await runSchedule(deps, jobs, c.req.param('id')), 'sync_schedule_started', 202));
  app.post('/:id/dry-run', async (c) => ok(c, await dryRunSchedule(deps, jobs, c.get('principal'), c.req.param('id'))));
  return app;
}
