import { DEFAULT_ACCESS_LOG_RETENTION_DAYS } from '../../../contract/access-log';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../../contract/expenses';
import { DEFAULT_MAX_UPLOAD_SIZE_MB, type SystemSettings, type UpdateSystemSettingsRequest } from '../../../contract/system';
import type { DB } from '../../db/database';

const DEFAULTS: SystemSettings = {
  max_upload_size: DEFAULT_MAX_UPLOAD_SIZE_MB,
  webdav_upload_mode: 'auto',
  expense_categories: [...DEFAULT_EXPENSE_CATEGORIES],
  strip_image_location: true,
  // Off: the online viewers send a file's link to a third party.
  online_office_viewers: false,
  // Off: a network is enough to tell visitors apart without keeping who they are.
  access_log_full_ip: false,
  access_log_retention_days: DEFAULT_ACCESS_LOG_RETENTION_DAYS,
};

/** Settings are rows of key → JSON value; absent keys take their defaults. */
export async function readSettings(db: DB): Promise<SystemSettings> {
  const rows = await db.selectFrom('system_settings').select(['key', 'value']).execute();
  const stored = Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  return { ...DEFAULTS, ...stored } as SystemSettings;
}

export async function writeSettings(db: DB, changes: UpdateSystemSettingsRequest, now: Date) {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of entries) {
      await trx
        .insertInto('system_settings')
        .values({ key, value: JSON.stringify(value), updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now.toISOString() }))
        .execute();
    }
  });
  return readSettings(db);
}
