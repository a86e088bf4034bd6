import type { DashboardStats } from '../../../contract/files';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { countAwaitingReview } from '../expenses/expenses';
import { committedUsage } from '../storages/configs';
import { viewCountsOf } from '../shares/view-counts';
import { countRunning } from '../transfers/records';
import { transfersOf } from '../transfers/registry';

const DAY_MS = 86_400_000;
export const DASHBOARD_DAYS = 7;

/** The last 7 UTC dates ending with today's (`YYYY-MM-DD`), oldest first. */
export function lastDays(now: Date, days = DASHBOARD_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Rows created per UTC day (timestamps are canonical UTC ISO text, so the day is its first 10 characters). */
async function perDay(db: DB, table: 'pastes' | 'files', days: string[]): Promise<number[]> {
  let query = db
    .selectFrom(table)
    .select((eb) => [eb.fn<string>('substr', [eb.ref('created_at'), eb.val(1), eb.val(10)]).as('day'), eb.fn.countAll<number>().as('count')])
    .where('created_at', '>=', `${days[0]}T00:00:00.000Z`)
    .groupBy('day');
  if (table === 'files') query = query.where('status', '=', 'committed');
  const counts = new Map((await query.execute()).map((row) => [row.day, Number(row.count)]));
  return days.map((day) => counts.get(day) ?? 0);
}

async function count(db: DB, table: 'pastes' | 'api_keys' | 'storage_configs'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** `GET /api/admin/dashboard/stats`. */
export async function dashboardStats(deps: AppDeps): Promise<DashboardStats> {
  // Management reads see every counted view and this instance's latest transfers.
  await Promise.all([viewCountsOf(deps).flush(), transfersOf(deps).flush()]);
  const days = lastDays(deps.now());
  const [totalPastes, totalApiKeys, totalS3Configs, usage, configs, lastWeekPastes, lastWeekFiles, expensesAwaitingReview, transfersInFlight] = await Promise.all([
    count(deps.db, 'pastes'),
    count(deps.db, 'api_keys'),
    count(deps.db, 'storage_configs'),
    committedUsage(deps.db),
    deps.db.selectFrom('storage_configs').selectAll().orderBy('is_default', 'desc').orderBy('created_at').orderBy('id').execute(),
    perDay(deps.db, 'pastes', days),
    perDay(deps.db, 'files', days),
    countAwaitingReview(deps.db),
    countRunning(deps.db),
  ]);
  const s3Buckets = configs.map((config) => {
    const used = usage.get(config.id) ?? { bytes: 0, files: 0 };
    const total = config.total_storage_bytes;
    return {
      id: config.id,
      name: config.name,
      providerType: config.provider_type,
      bucketName: config.bucket_name ?? '',
      usedStorage: used.bytes,
      totalStorage: total,
      fileCount: used.files,
      usagePercent: total ? Math.round((used.bytes / total) * 10_000) / 100 : null,
    };
  });
  return {
    totalPastes,
    transfersInFlight,
    totalFiles: [...usage.values()].reduce((sum, u) => sum + u.files, 0),
    totalApiKeys,
    totalS3Configs,
    totalStorageUsed: [...usage.values()].reduce((sum, u) => sum + u.bytes, 0),
    s3Buckets,
    lastWeekPastes,
    lastWeekFiles,
    expensesAwaitingReview,
  };
}
