import type { Insertable, Selectable, Updateable } from 'kysely';
import { JOB_END_STATUSES, FINISHED_KEPT_MS, type Job, type JobFailure, type JobStatus } from '../../../contract/jobs';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { newestPage } from '../../db/dialect';
import type { JobItemsTable, JobsTable } from '../../db/schema';
import { translate, type Lang, type MessageKey, type MessageParams } from '../../i18n/messages';

/** The job records (013-jobs): reads as the contract's Job, and the writes every module of jobs shares. */

export type JobRow = Selectable<JobsTable>;
export type JobItemRow = Selectable<JobItemsTable>;
export type NewJobItem = Omit<Insertable<JobItemsTable>, 'job_id'>;

/** The first failures a job answers with; `items.failed` counts them all. */
const FAILURES_SHOWN = 100;

export const findJobRow = (db: DB, id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertJob(db: DB, row: Insertable<JobsTable>, items: NewJobItem[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('jobs').values(row).execute();
    // In slices: SQLite takes at most 32,766 parameters in one statement.
    for (let start = 0; start < items.length; start += 500) {
      await trx
        .insertInto('job_items')
        .values(items.slice(start, start + 500).map((item) => ({ ...item, job_id: row.id })))
        .execute();
    }
  });
}

/** A failure's message as stored: its key and parameters, translated when read. */
export interface StoredMessage {
  key: MessageKey;
  params: MessageParams;
}

async function failuresOf(db: DB, row: JobRow, lang: Lang): Promise<JobFailure[]> {
  if (row.items_failed === 0) return [];
  const rows = await db
    .selectFrom('job_items')
    .select(['source_path', 'target_path', 'reason', 'reason_message'])
    .where('job_id', '=', row.id)
    .where('status', '=', 'failed')
    .orderBy('seq')
    .limit(FAILURES_SHOWN)
    .execute();
  return rows.map((item) => {
    const message = item.reason_message ? (JSON.parse(item.reason_message) as StoredMessage) : { key: 'internal' as const, params: {} };
    return { path: item.source_path ?? item.target_path, reason: item.reason ?? 'internal', message: translate(message.key, lang, message.params) };
  });
}

/** A job record as the contract's Job, its failures in the caller's language. */
export async function presentJob(db: DB, row: JobRow, lang: Lang): Promise<Job> {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    createdBy: { kind: row.created_by_kind, name: row.created_by_name, ...(row.created_by_id && { id: row.created_by_id }) },
    summary: row.summary,
    target: row.target,
    onConflict: row.on_conflict,
    syncMode: row.sync_mode,
    scheduleId: row.schedule_id,
    items: { total: row.items_total, done: row.items_done, skipped: row.items_skipped, failed: row.items_failed },
    bytes: { total: row.bytes_total, done: row.bytes_done },
    speed: row.status === 'running' ? row.speed : null,
    currentItem: row.status === 'running' ? row.current_item : null,
    failures: await failuresOf(db, row, lang),
    error: row.error_reason ? { reason: row.error_reason, message: translate(row.error_reason as MessageKey, lang) } : null,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    updatedAt: row.updated_at,
  };
}

/** Jobs a caller sees: a key its own (`created_by`), the admin all; newest first. */
export async function listJobRows(
  db: DB,
  filter: { createdBy?: string; status?: JobStatus; limit: number; offset: number },
): Promise<{ rows: JobRow[]; total: number }> {
  let query = db.selectFrom('jobs');
  if (filter.createdBy) query = query.where('created_by', '=', filter.createdBy);
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    newestPage(query.selectAll(), db, filter.limit, filter.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** What a live stream starts with: every job not ended, and those ended within FINISHED_KEPT_MS. */
export async function liveJobRows(deps: AppDeps, createdBy?: string): Promise<JobRow[]> {
  const since = new Date(deps.now().getTime() - FINISHED_KEPT_MS).toISOString();
  let query = deps.db
    .selectFrom('jobs')
    .selectAll()
    .where((eb) => eb.or([eb('status', 'not in', [...JOB_END_STATUSES]), eb('finished_at', '>=', since)]));
  if (createdBy) query = query.where('created_by', '=', createdBy);
  return query.orderBy('created_at', 'desc').limit(500).execute();
}

/** The items' counts and bytes by status, as the record keeps them. */
export async function countItems(db: DB, jobId: string) {
  const rows = await db
    .selectFrom('job_items')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('size').as('bytes')])
    .where('job_id', '=', jobId)
    .where('kind', '!=', 'folder')
    .groupBy('status')
    .execute();
  const of = (status: JobItemRow['status']) => rows.find((row) => row.status === status);
  const number = (value: unknown) => Number(value ?? 0);
  return {
    done: number(of('done')?.count),
    skipped: number(of('skipped')?.count),
    failed: number(of('failed')?.count),
    pending: number(of('pending')?.count) + number(of('running')?.count),
    /** Bytes of the items finished (done or skipped): a skipped file needs copying no more. */
    bytesFinished: number(of('done')?.bytes) + number(of('skipped')?.bytes),
  };
}

/** Writes the items' counts into the job record. */
export async function refreshCounts(db: DB, jobId: string, extra: Updateable<JobsTable> = {}) {
  const counts = await countItems(db, jobId);
  await db
    .updateTable('jobs')
    .set({ items_done: counts.done, items_skipped: counts.skipped, items_failed: counts.failed, bytes_done: counts.bytesFinished, ...extra })
    .where('id', '=', jobId)
    .execute();
  return counts;
}
