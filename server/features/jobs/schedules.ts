import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { Cron } from 'croner';
import type { SyncDryRun, SyncSchedule, SyncScheduleRequest } from '../../../contract/jobs';
import type { AppDeps, Principal } from '../../context';
import { ApiError, badInput } from '../../errors';
import type { Lang } from '../../i18n/messages';
import type { SyncSchedulesTable } from '../../db/schema';
import { holdLease } from '../../db/leases';
import { newestPage } from '../../db/dialect';
import { normalizePath } from '../fs/paths';
import { callerOf } from '../fs/resolve';
import { dryRunOf, planSync } from './plan';
import { jobsOf } from './service';
import { log } from '../../observability/log';

/** Sync schedules: a sync job started by cron (UTC), as the admin who made the schedule; one instance starts them. */

type ScheduleRow = Selectable<SyncSchedulesTable>;

/** The schedules' clock: the instance holding this lease starts what is due. */
export const SCHEDULE_LEASE = 'sync-schedules';
const TICK_MS = 30_000;

/** The next run after `after` (UTC); a pattern cron cannot read, or not of five fields, is a 400. */
export function nextRunOf(cron: string, after: Date): string | null {
  if (cron.trim().split(/\s+/).length !== 5) throw badInput('cron', 'invalid_cron');
  let pattern: Cron;
  try {
    pattern = new Cron(cron, { paused: true, timezone: 'UTC' });
  } catch {
    throw badInput('cron', 'invalid_cron');
  }
  const next = pattern.nextRun(after);
  pattern.stop();
  return next ? next.toISOString() : null;
}

const present = (row: ScheduleRow): SyncSchedule => ({
  id: row.id,
  source: row.source,
  target: row.target,
  cron: row.cron,
  mode: row.mode,
  enabled: row.enabled === 1,
  nextRunAt: row.enabled === 1 ? row.next_run_at : null,
  lastRunAt: row.last_run_at,
  lastJobId: row.last_job_id,
  createdAt: row.created_at,
});

const notFound = () => new ApiError(404, 'sync_schedule_not_found');

async function findRow(deps: AppDeps, id: string): Promise<ScheduleRow> {
  const row = await deps.db.selectFrom('sync_schedules').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** What a schedule's request must be: a mirror confirmed, a readable cron; its paths are checked as a sync's are. */
async function checked(deps: AppDeps, principal: Principal, input: SyncScheduleRequest) {
  if (input.mode === 'mirror' && !input.confirmMirror) {
    throw new ApiError(400, 'mirror_unconfirmed', {}, { field: 'confirmMirror', issue: 'mirror_unconfirmed' });
  }
  const nextRun = nextRunOf(input.cron, deps.now());
  await planSync(deps, callerOf(principal), input.source, input.target, input.mode);
  return {
    source: input.source.text,
    target: input.target.text,
    cron: input.cron.trim(),
    mode: input.mode,
    enabled: input.enabled ? 1 : 0,
    next_run_at: nextRun,
    updated_at: deps.now().toISOString(),
  };
}

export async function createSchedule(deps: AppDeps, principal: Principal & { kind: 'admin' }, input: SyncScheduleRequest): Promise<SyncSchedule> {
  const row: ScheduleRow = {
    id: randomUUID(),
    ...(await checked(deps, principal, input)),
    admin_id: principal.adminId,
    last_run_at: null,
    last_job_id: null,
    created_at: deps.now().toISOString(),
  };
  await deps.db.insertInto('sync_schedules').values(row).execute();
  return present(row);
}

export async function listSchedules(deps: AppDeps): Promise<SyncSchedule[]> {
  return (await newestPage(deps.db.selectFrom('sync_schedules').selectAll(), deps.db, 1000, 0).execute()).map(present);
}

export const readSchedule = async (deps: AppDeps, id: string) => present(await findRow(deps, id));

export async function updateSchedule(deps: AppDeps, principal: Principal, id: string, input: SyncScheduleRequest): Promise<SyncSchedule> {
  await findRow(deps, id);
  await deps.db.updateTable('sync_schedules').set(await checked(deps, principal, input)).where('id', '=', id).execute();
  return readSchedule(deps, id);
}

export async function deleteSchedule(deps: AppDeps, id: string): Promise<void> {
  const result = await deps.db.deleteFrom('sync_schedules').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound();
}

/** The admin a schedule acts as (the one who made it, or, when gone, none: the run is refused). */
async function actingAdmin(deps: AppDeps, row: ScheduleRow): Promise<Principal> {
  const admin = await deps.db.selectFrom('admins').select(['id', 'username']).where('id', '=', row.admin_id).executeTakeFirst();
  if (!admin) throw new ApiError(403, 'admin_only');
  return { kind: 'admin', adminId: admin.id, username: admin.username, tokenHash: '' };
}

/** Starts the schedule's sync job now; answers its id. */
export async function runSchedule(deps: AppDeps, id: string, lang: Lang): Promise<string> {
  const row = await findRow(deps, id);
  const job = await jobsOf(deps).create(
    await actingAdmin(deps, row),
    { type: 'sync', source: normalizePath(row.source), target: normalizePath(row.target), mode: row.mode, confirmMirror: true },
    lang,
    { actor: { kind: 'schedule', name: `${row.source} → ${row.target}`, id: row.id }, scheduleId: row.id },
  );
  const now = deps.now();
  await deps.db
    .updateTable('sync_schedules')
    .set({ last_run_at: now.toISOString(), last_job_id: job.id, next_run_at: row.enabled === 1 ? nextRunOf(row.cron, now) : row.next_run_at })
    .where('id', '=', id)
    .execute();
  return job.id;
}

export async function dryRunSchedule(deps: AppDeps, id: string): Promise<SyncDryRun> {
  const row = await findRow(deps, id);
  const caller = callerOf(await actingAdmin(deps, row));
  return dryRunOf(await planSync(deps, caller, normalizePath(row.source), normalizePath(row.target), row.mode));
}

/** Starts every enabled schedule that is due (a failed start is logged; its next run is still computed). */
export async function runDueSchedules(deps: AppDeps): Promise<void> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('sync_schedules')
    .select('id')
    .where('enabled', '=', 1)
    .where('next_run_at', '<=', now.toISOString())
    .execute();
  for (const { id } of due) {
    await runSchedule(deps, id, 'en').catch(async (error: unknown) => {
      log.error(error instanceof ApiError ? {} : { err: error }, `Sync schedule ${id} could not start${error instanceof ApiError ? `: ${error.messageKey}` : ''}`);
      const row = await findRow(deps, id);
      await deps.db.updateTable('sync_schedules').set({ next_run_at: nextRunOf(row.cron, now) }).where('id', '=', id).execute();
    });
  }
}

/** Every TICK_MS, the instance holding the schedules' lease starts what is due. Answers a stop function. */
export function startScheduleClock(deps: AppDeps): () => void {
  const tick = async () => {
    if (await holdLease(deps.db, SCHEDULE_LEASE, deps.now(), TICK_MS * 2)) await runDueSchedules(deps);
  };
  const timer = setInterval(() => void tick().catch((error: unknown) => log.error({ err: error }, 'Sync schedules failed')), TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
