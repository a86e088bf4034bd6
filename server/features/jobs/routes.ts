import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { createJobRequestSchema, jobListQuerySchema, retryJobRequestSchema, syncScheduleRequestSchema, type LiveEvent } from '../../../contract/jobs';
import { creatorOf, type AppDeps, type AppEnv } from '../../context';
import { jsonBody, ok, queryParams } from '../../http';
import { adminOf, requireAdmin, requirePermission } from '../auth/middleware';
import { findJobRow, liveJobRows, presentJob } from './records';
import { createSchedule, deleteSchedule, dryRunSchedule, listSchedules, readSchedule, runSchedule, updateSchedule } from './schedules';
import { jobsOf } from './service';

/** A comment line this often keeps proxies from closing a quiet event stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Server jobs under `/admin/jobs` (the admin: every job) and `/user/jobs` (keys with mount permission: their own;
 * every path inside the key's base path). `events` is a Server-Sent Events stream of contract/jobs.ts LiveEvent.
 */
export function jobRoutes(deps: AppDeps, kind: 'admin' | 'user') {
  const app = new Hono<AppEnv>();
  const jobs = jobsOf(deps);
  app.use('*', kind === 'admin' ? requireAdmin : requirePermission('mount'));
  const who = (c: Context<AppEnv>) => c.get('principal');

  app.post('/', jsonBody(createJobRequestSchema), async (c) => ok(c, await jobs.create(who(c), c.req.valid('json'), c.get('lang')), 'job_created', 201));
  app.get('/', queryParams(jobListQuerySchema), async (c) => ok(c, await jobs.list(who(c), c.req.valid('query'), c.get('lang'))));
  app.get('/events', (c) => streamSSE(c, (stream) => streamEvents(deps, c, stream)));
  app.get('/:id', async (c) => ok(c, await jobs.read(who(c), c.req.param('id'), c.get('lang'))));
  app.post('/:id/pause', async (c) => ok(c, await jobs.pause(who(c), c.req.param('id'), c.get('lang')), 'job_paused'));
  app.post('/:id/resume', async (c) => ok(c, await jobs.resume(who(c), c.req.param('id'), c.get('lang')), 'job_resumed'));
  app.post('/:id/cancel', async (c) => ok(c, await jobs.cancel(who(c), c.req.param('id'), c.get('lang')), 'job_cancelled'));
  app.post('/:id/retry-failed', jsonBody(retryJobRequestSchema), async (c) =>
    ok(c, await jobs.retryFailed(who(c), c.req.param('id'), c.get('lang'), c.req.valid('json').onConflict), 'job_retrying'),
  );
  return app;
}

/** `/admin/sync-schedules`: sync jobs started by cron; run now; a dry run that lists what a run would do. */
export function syncScheduleRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  const jobs = jobsOf(deps);
  app.get('/', async (c) => ok(c, await listSchedules(deps)));
  app.post('/', jsonBody(syncScheduleRequestSchema), async (c) =>
    ok(c, await createSchedule(deps, adminOf(c.get('principal')), c.req.valid('json')), 'sync_schedule_created', 201),
  );
  app.get('/:id', async (c) => ok(c, await readSchedule(deps, c.req.param('id'))));
  app.put('/:id', jsonBody(syncScheduleRequestSchema), async (c) =>
    ok(c, await updateSchedule(deps, c.get('principal'), c.req.param('id'), c.req.valid('json')), 'sync_schedule_updated'),
  );
  app.delete('/:id', async (c) => {
    await deleteSchedule(deps, c.req.param('id'));
    return ok(c, null, 'sync_schedule_deleted');
  });
  app.post('/:id/run', async (c) => {
    const jobId = await runSchedule(deps, c.req.param('id'), c.get('lang'));
    return ok(c, await jobs.read(c.get('principal'), jobId, c.get('lang')), 'job_created', 201);
  });
  app.post('/:id/dry-run', async (c) => ok(c, await dryRunSchedule(deps, c.req.param('id'))));
  return app;
}

const send = (stream: SSEStreamingApi, event: LiveEvent) => stream.writeSSE({ event: event.type, data: JSON.stringify(event) });

/** A snapshot of the jobs the caller sees, then each change of one of them, until the client goes. */
async function streamEvents(deps: AppDeps, c: Context<AppEnv>, stream: SSEStreamingApi) {
  const jobs = jobsOf(deps);
  const principal = c.get('principal');
  const lang = c.get('lang');
  const owner = principal.kind === 'admin' ? undefined : creatorOf(principal);
  await jobs.start();
  const changed = new Set<string>();
  let wake: (() => void) | undefined;
  const off = jobs.events.subscribe((id) => {
    changed.add(id);
    wake?.();
  });
  stream.onAbort(() => wake?.());
  try {
    const rows = await liveJobRows(deps, owner);
    await send(stream, { type: 'snapshot', jobs: await Promise.all(rows.map((row) => presentJob(deps.db, row, lang))) });
    while (!stream.aborted && !stream.closed) {
      if (changed.size === 0) {
        const quiet = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), KEEP_ALIVE_MS);
          wake = () => {
            clearTimeout(timer);
            resolve(false);
          };
        });
        wake = undefined;
        if (quiet) await stream.write(': keep-alive\n\n');
        continue;
      }
      const ids = [...changed];
      changed.clear();
      for (const id of ids) {
        const row = await findJobRow(deps.db, id);
        if (row && (!owner || row.created_by === owner)) await send(stream, { type: 'job', job: await presentJob(deps.db, row, lang) });
      }
    }
  } finally {
    off();
  }
}
