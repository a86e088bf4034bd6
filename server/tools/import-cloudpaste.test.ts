/**
 * A CloudPaste install (tests/fixtures/cloudpaste-929c46ed, its bucket on an s3rver) imported into a fresh install
 * (SQLite, or PostgreSQL with TEST_DATABASE=postgres) works through the real HTTP API as it did in CloudPaste: every
 * paste, every file share byte for byte, both keys within their permissions and base paths, the mount without the
 * shares' objects, the admin's login. A second run imports nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileListSchema } from '../../contract/files';
import { createdPasteSchema } from '../../contract/pastes';
import { publicPasteSchema } from '../../contract/public-paste';
import { systemSettingsSchema } from '../../contract/system';
import { CLOUDPASTE_DB, CLOUDPASTE_SECRET, cloudPasteObjects, cloudPasteS3rver } from '../../tests/fixtures/cloudpaste';
import { bytesOf, fileClient } from '../../tests/fixtures/files';
import { fsClient } from '../../tests/fixtures/fs';
import type { RunningS3rver } from '../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../tests/fixtures/test-app';
import { viewCountsOf } from '../features/shares/view-counts';
import { SHARE_AREA } from '../storage/keys';
import type { ImportReport } from './import-cloudpaste/report';
import { importCloudPaste } from './import-cloudpaste/runner';
import { readCloudPaste } from './import-cloudpaste/source';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const quiet = { info: () => undefined, warn: () => undefined };
const LAPTOP = 'H2KRkvQAQVU1';
const TEXTS_ONLY = 'custom_key_12345';

describe('importing a CloudPaste install', () => {
  // The day CloudPaste's data was made: `expires-soon` expires two days later.
  const t = useTestApp({ login: false, start: new Date('2026-11-27T12:00:00.000Z') });
  let s3: RunningS3rver;
  let report: ImportReport;
  const objects = cloudPasteObjects();
  const run = () => importCloudPaste(t.deps, readCloudPaste(CLOUDPASTE_DB), { secret: CLOUDPASTE_SECRET, merge: false, dryRun: false, s3Endpoint: s3.endpoint }, quiet);
  const openPaste = async (slug: string, password?: string) =>
    expectOk(await t.request(`/api/paste/${slug}`, password === undefined ? {} : { json: { password } }), publicPasteSchema);

  beforeAll(async () => {
    s3 = await cloudPasteS3rver();
    report = await run();
  });
  afterAll(() => s3?.stop());

  it('reports every kind and the row it left out, with why', () => {
    expect(Object.fromEntries(report.imported)).toEqual({
      'storage configs': 1,
      mounts: 1,
      admin: 1,
      'API keys': 2,
      pastes: 6,
      'file shares': 3,
      settings: 2,
    });
    expect(report.skipped).toEqual([
      { kind: 'file shares', item: 'M-e337b', reason: expect.stringContaining('uploaded through a mount') },
      { kind: 'settings', item: 'db_initialized', reason: "CloudPaste's own bookkeeping, not a setting" },
      { kind: 'settings', item: 'schema_version', reason: "CloudPaste's own bookkeeping, not a setting" },
    ]);
    expect(report.refused).toEqual([]);
    expect(report.sharesMoved).toBe(3);
    expect(report.sharesNotMoved).toBe(0);
  });

  it('opens every paste through the API, the protected one with its password, with views and limits carried over', async () => {
    expect((await openPaste('notes-plain')).content).toContain('- [x] agenda');
    expect((await openPaste('notes-plain')).remark).toBe('plain markdown');
    expect((await openPaste('zh-text')).content).toBe('你好，世界。这是一段中文文本。');
    expect((await openPaste('by-key')).content).toBe('made with the laptop key');
    const locked = await openPaste('with-password');
    expect(locked).toMatchObject({ requiresPassword: true, hasPassword: true });
    expect(locked.content).toBeUndefined();
    await expectError(await t.request('/api/paste/with-password', { json: { password: 'wrong' } }), 401);
    expect((await openPaste('with-password', 's3cret')).content).toBe('the password is not in here');

    // Viewed once of three in CloudPaste: two views are left.
    expect(await openPaste('three-views')).toMatchObject({ maxViews: 3, views: 2 });
    expect(await openPaste('three-views')).toMatchObject({ views: 3 });
    await expectError(await t.request('/api/paste/three-views'), 410);

    expect((await openPaste('expires-soon')).expiresAt).toBe('2026-11-29T01:59:44.000Z');
    t.clock.set(new Date('2026-11-29T02:00:00.000Z'));
    await expectError(await t.request('/api/paste/expires-soon'), 410);
    t.clock.set(new Date('2026-11-27T12:00:00.000Z'));
  });

  it('downloads the file shares byte for byte from the share area, the protected one with its password', async () => {
    const files = fileClient(t);
    expect(await bytesOf(await files.download('hello-file'))).toEqual(objects.get('shares/Oc5qKF-hello.txt'));
    expect(await bytesOf(await files.download('key-file'))).toEqual(objects.get('shares/Uwy5Mf-by-key.txt'));
    expect((await files.download('secret-pdf')).status).toBe(401);
    const pdf = await files.download('secret-pdf', '?password=filepass');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(await bytesOf(pdf)).toEqual(objects.get('shares/qoxI9T-secret.pdf'));
    for (const slug of ['hello-file', 'key-file', 'secret-pdf']) {
      expect((await files.row(slug)).storage_path.startsWith(`${SHARE_AREA}/shares/`)).toBe(true);
    }
    expect(await files.infoOk('secret-pdf')).toMatchObject({ maxViews: 5, views: 1 });
    expect(await files.views('hello-file')).toBe(2);
  });

  it('keeps both keys to their permissions and base paths, and their shares theirs', async () => {
    const info = async (key: string) => (await (await t.request('/api/test/api-key', { apiKey: key })).json()) as { data: unknown };
    expect((await info(LAPTOP)).data).toMatchObject({ basic_path: '/s3', permissions: { text: true, file: true, mount: true } });
    expect((await info(TEXTS_ONLY)).data).toMatchObject({ basic_path: '/', permissions: { text: true, file: false, mount: false } });

    const laptop = fsClient(t, { apiKey: LAPTOP });
    expect(await laptop.names('/s3/docs')).toEqual(['readme.md']);
    expect((await laptop.list('/local')).status).toBe(403);
    expect((await fsClient(t, { apiKey: TEXTS_ONLY }).list('/s3')).status).toBe(403);
    expect((await fileClient(t).upload(Buffer.from('x'), { apiKey: TEXTS_ONLY })).status).toBe(403);
    const made = await expectOk(await t.request('/api/paste', { apiKey: TEXTS_ONLY, json: { content: 'after the move' } }), createdPasteSchema, 201);
    // Gone again: the install holds only what came from CloudPaste for the second run below.
    await t.db.deleteFrom('pastes').where('id', '=', made.id).execute();

    // What the laptop key made is its own: it may open it as its owner (without a view), the other key may not.
    const byKey = await t.request('/api/paste/by-key', { apiKey: LAPTOP });
    expect(await expectOk(byKey, publicPasteSchema)).toMatchObject({ canEdit: true });
    const mine = await expectOk(await t.request('/api/user/files', { apiKey: LAPTOP }), fileListSchema);
    expect(mine.items.map((file) => file.slug)).toEqual(['key-file']);
  });

  it('lists the mount’s own file and none of the shares’ objects', async () => {
    const admin = fsClient(t, { token: await t.login('admin', 'admin123') });
    expect(await admin.names('/s3', true)).toEqual(['docs']);
    expect(await admin.names('/s3/docs', true)).toEqual(['readme.md']);
    expect(await bytesOf(await admin.download('/s3/docs/readme.md'))).toEqual(objects.get('docs/readme.md'));
  });

  it('logs the admin in with CloudPaste’s password, then keeps it as scrypt', async () => {
    const stored = () => t.db.selectFrom('admins').select('password_hash').where('username', '=', 'admin').executeTakeFirstOrThrow();
    await expectError(await t.request('/api/admin/login', { json: { username: 'admin', password: 'correct horse battery staple' } }), 401);
    await expectError(await t.request('/api/admin/login', { json: { username: 'admin', password: 'admin124' } }), 401);
    await t.login('admin', 'admin123');
    expect((await stored()).password_hash).toMatch(/^scrypt\$/);
    await t.login('admin', 'admin123');
    const settings = await expectOk(await t.request('/api/admin/system-settings', { token: await t.login('admin', 'admin123') }), systemSettingsSchema);
    expect(settings).toMatchObject({ max_upload_size: 200, webdav_upload_mode: 'multipart' });
  });

  it('imports nothing twice when run again', async () => {
    await viewCountsOf(t.deps).flush();
    const count = async () =>
      Promise.all(
        (['pastes', 'files', 'api_keys', 'mounts', 'storage_configs', 'admins', 'system_settings'] as const).map(
          async (table) => (await t.db.selectFrom(table).selectAll().execute()).length,
        ),
      );
    const before = await count();
    const hash = await t.db.selectFrom('admins').select('password_hash').executeTakeFirstOrThrow();
    const again = await run();
    expect([...again.imported.values()].every((n) => n === 0)).toBe(true);
    expect(again.already.get('pastes')).toBe(6);
    expect(again.sharesMoved).toBe(0);
    expect(await count()).toEqual(before);
    // The admin's password, rehashed at login, stays.
    expect(await t.db.selectFrom('admins').select('password_hash').executeTakeFirstOrThrow()).toEqual(hash);
  });
});
