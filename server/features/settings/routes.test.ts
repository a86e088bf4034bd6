import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../../contract/expenses';
import {
  DEFAULT_MAX_UPLOAD_SIZE_MB,
  healthSchema,
  maxUploadSizeSchema,
  previewSettingsSchema,
  systemSettingsSchema,
  versionSchema,
} from '../../../contract/system';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('public system routes', () => {
  const t = useTestApp({ login: false });

  it('GET /api/health answers status ok', async () => {
    expect(await expectOk(await t.request('/api/health'), healthSchema)).toEqual({ status: 'ok' });
  });

  it('GET /api/version answers the package version', async () => {
    const data = await expectOk(await t.request('/api/version'), versionSchema);
    expect(data.version).toBe(pkg.version);
    if (data.commit !== undefined) expect(data.commit).toMatch(/^\S+$/);
  });

  it('GET /api/system/max-upload-size answers 100 MB on a fresh install, without credentials', async () => {
    expect(DEFAULT_MAX_UPLOAD_SIZE_MB).toBe(100);
    expect(await expectOk(await t.request('/api/system/max-upload-size'), maxUploadSizeSchema)).toEqual({
      max_upload_size: 100,
    });
  });
});

describe('/api/admin/system-settings', () => {
  const t = useTestApp();
  beforeEach(async () => {
    await t.db.deleteFrom('system_settings').execute();
  });

  const get = () => t.request('/api/admin/system-settings', { token: t.token });
  const put = (json: unknown) => t.request('/api/admin/system-settings', { method: 'PUT', token: t.token, json });
  const categories = [...DEFAULT_EXPENSE_CATEGORIES];
  const accessLogDefaults = { access_log_full_ip: false, access_log_retention_days: 90 };
  const publicSize = async () =>
    (await expectOk(await t.request('/api/system/max-upload-size'), maxUploadSizeSchema)).max_upload_size;

  it('answers the defaults', async () => {
    expect(await expectOk(await get(), systemSettingsSchema)).toEqual({ max_upload_size: 100, webdav_upload_mode: 'auto', expense_categories: categories, strip_image_location: true, online_office_viewers: false, ...accessLogDefaults });
  });

  it('saves a fractional size, and the public route follows', async () => {
    const res = await put({ max_upload_size: 0.5 });
    const saved = await expectOk(res.clone(), systemSettingsSchema);
    expect(((await res.json()) as { message: string }).message).toBe('Settings saved');
    expect(saved).toEqual({ max_upload_size: 0.5, webdav_upload_mode: 'auto', expense_categories: categories, strip_image_location: true, online_office_viewers: false, ...accessLogDefaults });
    expect(await expectOk(await get(), systemSettingsSchema)).toEqual(saved);
    expect(await publicSize()).toBe(0.5);
  });

  it('changes only the settings given', async () => {
    await expectOk(await put({ max_upload_size: 250 }), systemSettingsSchema);
    const saved = await expectOk(await put({ webdav_upload_mode: 'multipart' }), systemSettingsSchema);
    expect(saved).toEqual({ max_upload_size: 250, webdav_upload_mode: 'multipart', expense_categories: categories, strip_image_location: true, online_office_viewers: false, ...accessLogDefaults });
    expect(await expectOk(await put({}), systemSettingsSchema)).toEqual(saved);
  });

  it('saves the expense categories the admin edits', async () => {
    const saved = await expectOk(await put({ expense_categories: [' fuel ', 'training'] }), systemSettingsSchema);
    expect(saved.expense_categories).toEqual(['fuel', 'training']);
  });

  it.each(['auto', 'proxy', 'multipart', 'direct'] as const)('accepts webdav_upload_mode %s', async (mode) => {
    expect((await expectOk(await put({ webdav_upload_mode: mode }), systemSettingsSchema)).webdav_upload_mode).toBe(mode);
  });

  it('keeps the settings in the database', async () => {
    await expectOk(await put({ max_upload_size: 12.25, webdav_upload_mode: 'proxy' }), systemSettingsSchema);
    const rows = await t.db.selectFrom('system_settings').select(['key', 'value', 'updated_at']).orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'max_upload_size', value: '12.25', updated_at: t.clock.now().toISOString() },
      { key: 'webdav_upload_mode', value: '"proxy"', updated_at: t.clock.now().toISOString() },
    ]);
  });

  it.each([
    ['zero', { max_upload_size: 0 }, 'max_upload_size', 'must_be_positive'],
    ['a negative size', { max_upload_size: -5 }, 'max_upload_size', 'must_be_positive'],
    ['a size given as a word', { max_upload_size: 'ten' }, 'max_upload_size', undefined],
    ['a size of null', { max_upload_size: null }, 'max_upload_size', undefined],
    ['an absurd size', { max_upload_size: 1e12 }, 'max_upload_size', 'too_large'],
    ['online viewers given as a word', { online_office_viewers: 'yes' }, 'online_office_viewers', 'must_be_boolean'],
    ['an unknown upload mode', { webdav_upload_mode: 'ftp' }, 'webdav_upload_mode', 'invalid_choice'],
    ['no expense category', { expense_categories: [] }, 'expense_categories', 'required'],
    ['a blank expense category', { expense_categories: ['travel', ' '] }, 'expense_categories.1', 'required'],
    ['a repeated expense category', { expense_categories: ['travel', 'travel'] }, 'expense_categories', 'duplicate'],
    ['a location setting given as a word', { strip_image_location: 'yes' }, 'strip_image_location', 'must_be_boolean'],
    ['full addresses given as a word', { access_log_full_ip: 'yes' }, 'access_log_full_ip', 'must_be_boolean'],
    ['no days of access log', { access_log_retention_days: 0 }, 'access_log_retention_days', 'must_be_positive'],
    ['half a day of access log', { access_log_retention_days: 1.5 }, 'access_log_retention_days', 'must_be_integer'],
    ['over ten years of access log', { access_log_retention_days: 3651 }, 'access_log_retention_days', 'too_large'],
  ])('answers 400 for %s and changes nothing', async (_name, json, field, issue) => {
    const body = await expectError(await put(json), 400);
    expect(body.data).toMatchObject({ error: 'validation', field });
    if (issue) expect(body.data.issue).toBe(issue);
    expect(body.message).toContain(field);
    expect(await publicSize()).toBe(100);
  });

  it('turns the online Office viewers on, and the public preview route follows', async () => {
    const publicPreviews = async () => expectOk(await t.request('/api/system/previews'), previewSettingsSchema);
    expect(await publicPreviews()).toEqual({ online_office_viewers: false });
    expect(await expectOk(await put({ online_office_viewers: true }), systemSettingsSchema)).toMatchObject({ online_office_viewers: true });
    expect(await publicPreviews()).toEqual({ online_office_viewers: true });
  });

  it('saves nothing when one of two values is bad', async () => {
    await expectError(await put({ max_upload_size: 5, webdav_upload_mode: 'bad' }), 400);
    expect(await expectOk(await get(), systemSettingsSchema)).toEqual({ max_upload_size: 100, webdav_upload_mode: 'auto', expense_categories: categories, strip_image_location: true, online_office_viewers: false, ...accessLogDefaults });
  });

  it('needs an admin: 401 anonymous, 403 for an API key', async () => {
    for (const method of ['GET', 'PUT']) {
      const json = method === 'PUT' ? { max_upload_size: 1 } : undefined;
      const anon = await expectError(await t.request('/api/admin/system-settings', { method, json }), 401);
      expect(anon.data.error).toBe('unauthorized');
    }
    const key = await t.createKey(t.token, { text_permission: true, file_permission: true, mount_permission: true });
    for (const method of ['GET', 'PUT']) {
      const json = method === 'PUT' ? { max_upload_size: 1 } : undefined;
      const res = await t.request('/api/admin/system-settings', { method, json, apiKey: key.key });
      expect((await expectError(res, 403)).data.error).toBe('forbidden');
    }
    expect(await publicSize()).toBe(100);
  });
});
