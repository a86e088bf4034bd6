import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import type { Selectable } from 'kysely';
import type { SyncDryRun, SyncMode, SyncSchedule, SyncScheduleRequest } from '../../../contract/jobs';
import type { AppDeps, Principal } from '../../context';
import type { SyncSchedulesTable } from '../../db/schema';
import { ApiError, notFound } from '../../errors';
import { isWithin } from '../fs/paths';
import { callerOf, resolveTarget } from '../fs/resolve';

export type SyncScheduleRow = Selectable<SyncSchedulesTable>;

/**
 * What a schedule needs of the jobs: a sync job started for it, and the plan of a sync without running it. Given
 * by the app (server/app.ts), so that schedules stay a small room beside the jobs.
 */
export interface SyncJobs {
  startSync(deps: AppDeps, schedule: SyncScheduleRow): Promise<{ id: string }>;
  planSync(deps: AppDeps, principal: Principal, source: string, target: string, mode: SyncMode): Promise<SyncDryRun>;
}

const scheduleNotFound = () => notFound('sync_schedule_not_found');


/** The next time the expression is due after `after`, in UTC; a bad expression is a 400 on `cron`. */
export function nextRunOf(cron: string, after: Date): Date | null {
  let pattern: Cron;
  try {
    pattern = new Cron(cron, { paused: true, timezone: 'UTC' });
  } catch {
    throw new ApiError(400, 'sync_cron_invalid', {}, { field: 'cron', issue: 'invalid_cron' });
  }
  return pattern.nextRun(after);
}

const present = (row: SyncScheduleRow): SyncSchedule => ({
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

/**
 * A schedule's two paths must each lie inside a mount the admin sees, neither inside the other; a mirror (it
 * deletes in the target) must be confirmed.
 */
async function checkRequest(deps: AppDeps, principal: Principal, request: SyncScheduleRequest) {
  if (request.mode === 'mirror' && !request.confirmMirror) throw new ApiError(400, 'mirror_unconfirmed', {}, { field: 'confirmMirror', issue: 'required' });
  if (isWithin(request.source, request.target.text) || isWithin(request.target, request.source.text)) {
    throw new ApiError(400, 'sync_paths_overlap', {}, { field: 'target', issue: 'overlaps_source' });
  }
  for (const [field, path] of [['source', request.source], ['target', request.target]] as const) {
    const resolved = await resolveTarget(deps, callerOf(principal), path, 'use');
    if (resolved.kind !== 'mount') throw new ApiError(400, 'sync_path_not_in_mount', {}, { field, issue: 'not_in_mount' });
  }
}

export async function createSchedule(deps: AppDeps, principal: Principal, request: SyncScheduleRequest): Promise<SyncSchedule> {
  await checkRequest(deps, principal, request);
  const now = deps.now();
  const row: SyncScheduleRow = {
    id: randomUUID(),
    source: request.source.text,
    target: request.target.text,
    cron: request.cron,
    mode: request.mode,
    enabled: request.enabled ? 1 : 0,
    next_run_at: nextRunOf(request.cron, now)?.toISOString() ?? null,
    last_run_at: null,
    last_job_id: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.db.insertInto('sync_schedules').values(row).execute();
  return present(row);
}

export async function listSchedules(deps: AppDeps): Promise<SyncSchedule[]> {
  const rows = await deps.db.selectFrom('sync_schedules').selectAll().orderBy('created_at').execute();
  return rows.map(present);
}

async function findSchedule(deps: AppDeps, id: string): Promise<SyncScheduleRow> {
  const row = await deps.db.selectFrom('sync_schedules').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw scheduleNotFound();
  return row;
}

export async function updateSchedule(deps: AppDeps, principal: Principal, id: string, request: SyncScheduleRequest): Promise<SyncSchedule> {
  await findSchedule(deps, id);
  await checkRequest(deps, principal, request);
  const now = deps.now();
  const changes = {
    source: request.source.text,
    target: request.target.text,
    cron: request.cron,
    mode: request.mode,
    enabled: request.enabled ? 1 : 0,
    next_run_at: nextRunOf(request.cron, now)?.toISOString() ?? null,
    updated_at: now.toISOString(),
  };
  await deps.db.updateTable('sync_schedules').set(changes).where('id', '=', id).execute();
  return present(await findSchedule(deps, id));
}

export async function deleteSchedule(deps: AppDeps, id: string): Promise<void> {
  const result = await deps.db.deleteFrom('sync_schedules').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw scheduleNotFound();
}

/** Starts the schedule's sync now, whatever its time; the schedule keeps its next run. */
export async function runSchedule(deps: AppDeps, jobs: SyncJobs, id: string): Promise<SyncSchedule> {
  const row = await findSchedule(deps, id);
  const job = await jobs.startSync(deps, row);
  await deps.db.updateTable('sync_schedules').set({ last_run_at: deps.now().toISOString(), last_job_id: job.id }).where('id', '=', id).execute();
  return present(await findSchedule(deps, id));
}

/** What a run would copy and delete now, changing nothing. */
export async function dryRunSchedule(deps: AppDeps, jobs: SyncJobs, principal: Principal, id: string): Promise<SyncDryRun> {
  const row = await findSchedule(deps, id);
  return jobs.planSync(deps, principal, row.source, row.target, row.mode);
}

/**
 * Starts every enabled schedule that is due, each once: its next run moves on before its job starts (a claim by
 * compare-and-set on `next_run_at`, so two instances never both start it), and a failed start is logged and tried
 * again at the next due time.
 */
export async function runDueSchedules(deps: AppDeps, jobs: SyncJobs): Promise<number> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('sync_schedules')
    .selectAll()
    .where('enabled', '=', 1)
    .where('next_run_at', '<=', now.toISOString())
    .execute();
  let started = 0;
  for (const row of due) {
    const next = nextRunOf(row.cron, now)?.toISOString() ?? null;
    const claimed = await deps.db
      .updateTable('sync_schedules')
      .set({ next_run_at: next })
      .where('id', '=', row.id)
      .where('next_run_at', '=', row.next_run_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    try {
      const job = await jobs.startSync(deps, row);
      await deps.db.updateTable('sync_schedules').set({ last_run_at: now.toISOString(), last_job_id: job.id }).where('id', '=', row.id).execute();
      started++;
    } catch (error) {
      console.error(`Sync schedule ${row.id} could not start:`, error instanceof Error ? error.message : error);
    }
  }
  return started;
}
