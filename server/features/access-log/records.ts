import { sql, type Selectable } from 'kysely';
import type { AccessLog, AccessLogEntry } from '../../../contract/access-log';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { ShareAccessLogTable } from '../../db/schema';
import { notFound } from '../../errors';
import { CSV_BOM, csvLine } from '../../csv';
import type { PasteScope } from '../pastes/pastes';
import { readSettings } from '../settings/settings';
import { accessRecorderOf } from './recorder';

export type ShareTable = 'pastes' | 'files';

/** The log's column that points at a share of `table`. */
const columnOf = (table: ShareTable) => (table === 'pastes' ? 'paste_id' : 'file_id');

/**
 * The id of the share with `slug` that `scope` may see (a file share once committed), or the same 404 as the
 * share's other management routes: someone else's share is not found.
 */
export async function shareInScope(db: DB, table: ShareTable, scope: PasteScope, slug: string): Promise<string> {
  let query = db.selectFrom(table).select('id').where('slug', '=', slug);
  if (table === 'files') query = query.where('status', '=', 'committed');
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(table === 'pastes' ? 'paste_not_found' : 'file_not_found');
  return row.id;
}

const entryOf = (row: Selectable<ShareAccessLogTable>): AccessLogEntry => ({
  at: row.at,
  ip: row.ip,
  userAgent: row.user_agent,
  kind: row.kind,
  bytes: Number(row.bytes),
  completed: row.completed === 1,
  count: Number(row.count),
});

/** A page of a share's log, newest first, with its accesses counted by UTC day and its last view. */
export async function readAccessLog(deps: AppDeps, table: ShareTable, shareId: string, limit: number, offset: number): Promise<AccessLog> {
  await accessRecorderOf(deps).flush(); // A read of the log sees every access recorded so far.
  const rows = deps.db.selectFrom('share_access_log').where(columnOf(table), '=', shareId);
  const items = await rows.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  const summary = await rows
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.max(sql<string | null>`case when kind = 'view' then at end`).as('last_view')])
    .executeTakeFirstOrThrow();
  const day = sql<string>`substr(at, 1, 10)`;
  const days = await rows
    .select([
      day.as('day'),
      sql<number>`sum(case when kind = 'view' then count else 0 end)`.as('views'),
      sql<number>`sum(case when kind = 'peek' then count else 0 end)`.as('peeks'),
    ])
    .groupBy(day)
    .orderBy(day)
    .execute();
  const total = Number(summary.total);
  return {
    items: items.map(entryOf),
    pagination: { total, limit, offset, hasMore: offset + items.length < total },
    days: days.map((row) => ({ day: row.day, views: Number(row.views), peeks: Number(row.peeks) })),
    lastOpenedAt: summary.last_view ?? null,
  };
}

const CSV_COLUMNS = ['time', 'ip', 'user_agent', 'kind', 'bytes', 'completed', 'count'];
const CSV_ROWS_PER_READ = 1000;

/**
 * A share's whole log as RFC 4180 CSV, newest first, read a thousand rows at a time (by `at` and `id`, which no
 * row written meanwhile can shift). The first chunk starts with a UTF-8 byte order mark, so that Excel reads the
 * user agents (and anything else not ASCII) as UTF-8.
 */
export async function* accessLogCsv(deps: AppDeps, table: ShareTable, shareId: string): AsyncGenerator<string> {
  await accessRecorderOf(deps).flush();
  yield `${CSV_BOM}${csvLine(CSV_COLUMNS)}`;
  let after: { at: string; id: number } | undefined;
  for (;;) {
    let query = deps.db.selectFrom('share_access_log').selectAll().where(columnOf(table), '=', shareId);
    if (after) {
      const { at, id } = after;
      query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
    }
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(CSV_ROWS_PER_READ).execute();
    if (rows.length === 0) return;
    yield rows
      .map(entryOf)
      .map((entry) => csvLine([entry.at, entry.ip, entry.userAgent, entry.kind, String(entry.bytes), String(entry.completed), String(entry.count)]))
      .join('');
    const last = rows[rows.length - 1];
    if (!last || rows.length < CSV_ROWS_PER_READ) return;
    after = { at: last.at, id: Number(last.id) };
  }
}

/** The leader's sweep: accesses older than the retention setting leave the log. */
export async function sweepAccessLog(deps: Pick<AppDeps, 'db' | 'now'>): Promise<number> {
  const { access_log_retention_days: days } = await readSettings(deps.db);
  const cutoff = new Date(deps.now().getTime() - days * 24 * 60 * 60 * 1000).toISOString();
  const result = await deps.db.deleteFrom('share_access_log').where('at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
