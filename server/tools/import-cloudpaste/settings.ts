import * as v from 'valibot';
import { updateSystemSettingsRequestSchema, type UpdateSystemSettingsRequest } from '../../../contract/system';
import { type ImportContext } from './context';

/** CloudPaste's bookkeeping rows, which are no settings of anyone's. */
const BOOKKEEPING = new Set(['schema_version', 'db_initialized']);

/** The settings both apps have. */
const SHARED: readonly string[] = ['max_upload_size', 'webdav_upload_mode'] satisfies (keyof UpdateSystemSettingsRequest)[];

/** A CloudPaste setting as our settings request would carry it (CloudPaste stores every value as text). */
function settingOf(key: string, value: string): UpdateSystemSettingsRequest | undefined {
  const parsed = v.safeParse(updateSystemSettingsRequestSchema, { [key]: key === 'max_upload_size' ? Number(value) : value });
  return parsed.success ? parsed.output : undefined;
}

/**
 * The settings both apps have, checked as the settings API checks them.
 * Merging keeps the install's own value of a setting it has set.
 */
export async function importSettings(ctx: ImportContext): Promise<void> {
  const { db } = ctx.deps;
  const at = ctx.deps.now().toISOString();
  for (const { key, value } of ctx.data.settings) {
    if (!SHARED.includes(key)) {
      ctx.report.skip('settings', key, BOOKKEEPING.has(key) ? "CloudPaste's own bookkeeping, not a setting" : 'Clipstash has no such setting');
      continue;
    }
    const setting = settingOf(key, value);
    if (!setting) {
      ctx.report.skip('settings', key, `the value ${value} is not allowed here`);
      continue;
    }
    const json = JSON.stringify(setting[key as keyof UpdateSystemSettingsRequest]);
    const current = await db.selectFrom('system_settings').select('value').where('key', '=', key).executeTakeFirst();
    if (current?.value === json) {
      ctx.report.alreadyThere('settings');
      continue;
    }
    if (current && ctx.options.merge) {
      ctx.report.skip('settings', key, `the install's own value ${current.value} is kept`);
      continue;
    }
    await db
      .insertInto('system_settings')
      .values({ key, value: json, updated_at: at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: at }))
      .execute();
    ctx.report.add('settings');
  }
}
