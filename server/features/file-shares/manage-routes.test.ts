import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { dashboardStatsSchema, fileListSchema, fileShareSchema } from '../../../contract/files';
import { publicFileSchema } from '../../../contract/public-file';
import { slugAvailabilitySchema } from '../../../contract/slugs';
import { storageConfigSchema } from '../../../contract/storage';
import { fileClient, patternBytes, type Auth } from '../../../tests/fixtures/files';
import { expectError, expectOk, HOUR, useTestApp } from '../../../tests/fixtures/test-app';
import { lastDays } from '../settings/dashboard';

describe('file uploads: permissions and validation', () => {
  const t = useTestApp();
  let fileKey: CreatedApiKey;
  let textKey: CreatedApiKey;
  let f: ReturnType<typeof fileClient>;
  let privateConfig: string;
  const admin = (): Auth => ({ token: t.token });

  beforeAll(async () => {
    fileKey = await t.createKey(t.token, { file_permission: true });
    textKey = await t.createKey(t.token, { text_permission: true });
    f = fileClient(t);
    privateConfig = (
      await expectOk(await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'admins only' } }), storageConfigSchema, 201)
    ).id;
  });

  it('needs credentials (401) and, for a key, the file permission (403)', async () => {
    const bytes = patternBytes(10);
    expect((await expectError(await f.upload(bytes, {}), 401)).data.error).toBe('unauthorized');
    await expectError(await f.upload(bytes, { apiKey: textKey.key }), 403);
    await expectError(await f.presign({ filename: 'a', size: 1 }, {}), 401);
    await expectError(await f.presign({ filename: 'a', size: 1 }, { apiKey: textKey.key }), 403);
    await expectError(await f.commit({ file_id: 'x' }, { apiKey: textKey.key }), 403);
    await expectError(await t.request('/api/user/files', { apiKey: textKey.key }), 403);
    await expectError(await t.request('/api/admin/files', { apiKey: fileKey.key }), 403);
    await expectError(await t.request('/api/admin/dashboard/stats', { apiKey: fileKey.key }), 403);
  });

  it('lets a key use public configs only: 403 "No permission to use this storage configuration"', async () => {
    const denied = await expectError(await f.upload(patternBytes(10), { apiKey: fileKey.key }, { fields: { s3_config_id: privateConfig } }), 403);
    expect(denied.message).toBe('No permission to use this storage configuration');
    const deniedZh = await expectError(
      await t.request('/api/s3/presign', {
        apiKey: fileKey.key,
        json: { s3_config_id: privateConfig, filename: 'a', size: 1 },
        headers: { 'accept-language': 'zh-CN' },
      }),
      403,
    );
    expect(deniedZh.message).toBe('没有使用此存储配置的权限');
    // The admin may; the key may use the public default.
    expect((await f.uploadOk(patternBytes(10), admin(), { fields: { s3_config_id: privateConfig } })).s3_config_id).toBe(privateConfig);
    const own = await f.uploadOk(patternBytes(10), { apiKey: fileKey.key });
    expect(own.created_by).toBe(`apikey:${fileKey.id}`);
    await expectError(await f.upload(patternBytes(10), admin(), { fields: { s3_config_id: 'no-such-config' } }), 404);
  });

  it('refuses what is not a multipart form, a form without a file, and more than one file (400)', async () => {
    const notForm = await expectError(await t.request('/api/upload', { token: t.token, rawBody: 'hello', headers: { 'content-type': 'text/plain' } }), 400);
    expect(notForm.message).toBe('Send the file as multipart/form-data');
    const fieldsOnly = new FormData();
    fieldsOnly.append('remark', 'no file here');
    expect((await expectError(await t.request('/api/upload', { token: t.token, method: 'POST', body: fieldsOnly }), 400)).message).toBe('The form has no file');
    const two = new FormData();
    two.append('file', new Blob([patternBytes(10)]), 'a.bin');
    two.append('file', new Blob([patternBytes(10)]), 'b.bin');
    expect((await expectError(await t.request('/api/upload', { token: t.token, method: 'POST', body: two }), 400)).data).toMatchObject({
      field: 'file',
      issue: 'only_one_file',
    });
    const broken = await t.request('/api/upload', {
      token: t.token,
      rawBody: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status).toBe(400);
  });

  it('validates share options and a climbing path, before or after the file (400)', async () => {
    for (const [fields, field] of [
      [{ slug: 'upload' }, 'slug'],
      [{ slug: 'bad slug!' }, 'slug'],
      [{ max_views: '-1' }, 'max_views'],
      [{ max_views: 'many' }, 'max_views'],
      [{ expires_in: '-2' }, 'expires_in'],
      [{ path: 'a/../../etc' }, 'path'],
    ] as const) {
      expect((await expectError(await f.upload(patternBytes(10), admin(), { fields }), 400)).data.field).toBe(field);
      expect((await expectError(await f.upload(patternBytes(10), admin(), { after: fields }), 400)).data.field).toBe(field);
    }
    // Polled: a form broken off in an earlier test closes its staging file after its answer, on a busy machine later.
    await expect.poll(() => readdirSync(join(t.dataDir, 'staging')), { timeout: 5_000 }).toEqual([]);
    await expectError(await f.presign({ filename: 'a/b.txt', size: 1 }, admin()), 400);
    await expectError(await f.presign({ filename: 'x', size: -1 }, admin()), 400);
  });

  it('answers 409 with the agreed message for a taken slug, before or after the bytes, and keeps the storage clean', async () => {
    await f.uploadOk(patternBytes(10), admin(), { fields: { slug: 'taken-file' } });
    const early = await expectError(await f.upload(patternBytes(10), admin(), { fields: { slug: 'taken-file' } }), 409);
    expect(early.message).toBe('Link suffix is already taken, please try another');
    const late = await expectError(await f.upload(patternBytes(10), admin(), { after: { slug: 'taken-file' } }), 409);
    expect(late.data).toMatchObject({ error: 'conflict', field: 'slug' });
    await expectError(await f.presign({ filename: 'x', size: 1, slug: 'taken-file' }, admin()), 409);
    // Pastes have their own slug space.
    expect((await t.request('/api/paste', { token: t.token, json: { content: 'x', slug: 'taken-file' } })).status).toBe(201);
    const check = await expectOk(await t.request('/api/slugs/file/taken-file', { token: t.token }), slugAvailabilitySchema);
    expect(check).toEqual({ slug: 'taken-file', available: false });
  });

  it('applies share options sent after the file, keeps the Markdown rule, and takes Unicode file names', async () => {
    const share = await f.uploadOk(new TextEncoder().encode('# hi'), admin(), {
      filename: '笔记 notes.md',
      after: { remark: '  trimmed  ', max_views: '4', expires_in: '2', slug: 'after-fields' },
    });
    expect(share).toMatchObject({
      slug: 'after-fields',
      filename: '笔记 notes.md',
      mimetype: 'text/markdown',
      remark: 'trimmed',
      maxViews: 4,
      expiresAt: new Date(t.clock.now().getTime() + 2 * HOUR).toISOString(),
    });
    expect(share.storage_path).toMatch(/^\.clipstash-shares\/[A-Za-z0-9]{10}-笔记 notes\.md$/);
    const shown = await f.view(share.slug, '', { token: t.token });
    expect(shown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await shown.text()).toBe('# hi');
    const placed = await f.uploadOk(patternBytes(5), admin(), { filename: '../../x.txt', fields: { path: '/docs//2030/./q1/' } });
    expect(placed.filename).toBe('x.txt');
    expect(placed.storage_path).toMatch(/^\.clipstash-shares\/docs\/2030\/q1\/[A-Za-z0-9]{10}-x\.txt$/);
    const typed = await f.uploadOk(patternBytes(5), admin(), { filename: 'blob', fields: { mimetype: 'image/webp' } });
    expect(typed.mimetype).toBe('image/webp');
    const junk = await f.uploadOk(patternBytes(5), admin(), { filename: 'x', fields: { mimetype: 'text/html\r\nX-Evil: 1' } });
    expect(junk.mimetype).toBe('application/octet-stream');
  });

  it('streams a body sent in many small chunks (unknown length) and survives a client that goes away', async () => {
    const boundary = 'clipstash-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="chunked.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const bytes = patternBytes(256 * 1024);
    const chunks = [new TextEncoder().encode(head), ...Array.from({ length: 64 }, (_, i) => bytes.subarray(i * 4096, (i + 1) * 4096)), new TextEncoder().encode(tail)];
    const body = Readable.toWeb(Readable.from(chunks)) as ReadableStream<Uint8Array>;
    const share = await expectOk(
      await t.request('/api/upload', { token: t.token, method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }),
      fileShareSchema,
      201,
    );
    expect(share.size).toBe(bytes.length);

    const before = (await t.db.selectFrom('files').select('id').execute()).length;
    const storageRoot = join(t.dataDir, 'storage', share.s3_config_id);
    const filesOnDisk = () => readdirSync(storageRoot, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    const onDisk = filesOnDisk();
    const aborted = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        controller.enqueue(bytes.subarray(0, 10_000));
        controller.error(new Error('connection reset'));
      },
    });
    const res = await t.request('/api/upload', { token: t.token, method: 'POST', body: aborted, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }).catch(
      (error: unknown) => error,
    );
    // The app answers an error (or the request itself fails); either way no record and no object remain.
    if (res instanceof Response) expect(res.status).toBe(400);
    expect((await t.db.selectFrom('files').select('id').execute()).length).toBe(before);
    expect(filesOnDisk()).toBe(onDisk);
  });
});

describe('file management', () => {
  const t = useTestApp();
  let key: CreatedApiKey;
  let otherKey: CreatedApiKey;
  let f: ReturnType<typeof fileClient>;

  beforeAll(async () => {
    key = await t.createKey(t.token, { file_permission: true });
    otherKey = await t.createKey(t.token, { file_permission: true });
    f = fileClient(t);
  });

  it('lists committed files newest first with offset pagination (default 50); keys see their own', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await f.uploadOk(patternBytes(10 + i), i % 2 ? { apiKey: key.key } : { token: t.token }));
      t.clock.advance(1000);
    }
    await f.presignOk({ filename: 'pending.bin', size: 10 }, { token: t.token });
    const all = await expectOk(await t.request('/api/admin/files', { token: t.token }), fileListSchema);
    expect(all.pagination).toEqual({ total: 5, limit: 50, offset: 0, hasMore: false });
    expect(all.items.map((item) => item.id)).toEqual(made.map((item) => item.id).reverse());
    const page = await expectOk(await t.request('/api/admin/files?limit=2&offset=1', { token: t.token }), fileListSchema);
    expect(page.items.map((item) => item.id)).toEqual([made[3]?.id, made[2]?.id]);
    expect(page.pagination).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
    const mine = await expectOk(await t.request('/api/user/files', { apiKey: key.key }), fileListSchema);
    expect(mine.items.map((item) => item.id)).toEqual([made[3]?.id, made[1]?.id]);
    expect((await expectOk(await t.request('/api/user/files', { apiKey: otherKey.key }), fileListSchema)).items).toEqual([]);
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc']) {
      await expectError(await t.request(`/api/admin/files?${query}`, { token: t.token }), 400);
    }
  });

  it('reads and updates a file: remark, slug, expiry, max views, password set and cleared', async () => {
    const share = await f.uploadOk(patternBytes(10), { apiKey: key.key });
    await expectError(await t.request(`/api/user/files/${share.id}`, { apiKey: otherKey.key }), 404);
    expect(await expectOk(await t.request(`/api/user/files/${share.id}`, { apiKey: key.key }), fileShareSchema)).toEqual(share);

    const expiresAt = new Date(t.clock.now().getTime() + 5 * HOUR).toISOString();
    const updated = await expectOk(
      await t.request(`/api/user/files/${share.id}`, {
        apiKey: key.key,
        method: 'PUT',
        json: { remark: 'new', slug: 'renamed-file', expiresAt, maxViews: 9, password: 'pw' },
      }),
      fileShareSchema,
    );
    expect(updated).toMatchObject({ remark: 'new', slug: 'renamed-file', expiresAt, maxViews: 9, hasPassword: true, url: '/file/renamed-file' });
    const cleared = await expectOk(
      await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'PUT', json: { password: null, expiresAt: null, remark: '' } }),
      fileShareSchema,
    );
    expect(cleared).toMatchObject({ hasPassword: false, expiresAt: null, remark: null });
    expect((await f.infoOk('renamed-file')).requires_password).toBe(false);

    const past = await expectError(
      await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'PUT', json: { expiresAt: '2000-01-01T00:00:00Z' } }),
      400,
    );
    expect(past.data.field).toBe('expiresAt');
    const other = await f.uploadOk(patternBytes(10), { token: t.token }, { fields: { slug: 'occupied' } });
    await expectError(await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'PUT', json: { slug: 'occupied' } }), 409);
    await expectError(await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'PUT', json: { slug: 'api' } }), 400);
    await expectError(await t.request(`/api/user/files/${other.id}`, { apiKey: key.key, method: 'PUT', json: { remark: 'x' } }), 404);
    await expectError(await t.request('/api/admin/files/nope', { token: t.token, method: 'PUT', json: { remark: 'x' } }), 404);
  });

  it('batch-deletes in scope: others’ files count as missing (202), a clean run is 200', async () => {
    const mine = await f.uploadOk(patternBytes(10), { apiKey: key.key });
    const theirs = await f.uploadOk(patternBytes(10), { apiKey: otherKey.key });
    const partial = await t.request('/api/user/files/batch-delete', { apiKey: key.key, json: { ids: [mine.id, theirs.id, mine.id] } });
    expect(partial.status).toBe(202);
    expect((await partial.json()).data).toEqual({ deleted: 1, missing: 1, failed: 0 });
    const clean = await t.request('/api/user/files/batch-delete', { apiKey: otherKey.key, json: { ids: [theirs.id] } });
    expect(clean.status).toBe(200);
    await expectError(await t.request('/api/admin/files/batch-delete', { token: t.token, json: { ids: [] } }), 400);
  });

  it('keeps the record and answers 502 when storage refuses to delete the object', async () => {
    const share = await f.uploadOk(patternBytes(10), { token: t.token });
    // Point the record at a key the LOCAL driver refuses, as a storage failure stands in.
    await t.db.updateTable('files').set({ storage_path: '../outside' }).where('id', '=', share.id).execute();
    const refused = await expectError(await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'DELETE' }), 502);
    expect(refused.message).toMatch(/^The storage did not delete the file \(.*\); the record was kept$/);
    expect(await f.rowById(share.id)).toBeDefined();
    const batch = await t.request('/api/admin/files/batch-delete', { token: t.token, json: { ids: [share.id] } });
    expect(batch.status).toBe(202);
    expect((await batch.json()).data).toEqual({ deleted: 0, missing: 0, failed: 1 });
    await t.db.deleteFrom('files').where('id', '=', share.id).execute();
  });

  it('answers 404 for unknown slugs and for pending uploads on every public route', async () => {
    const pending = await f.presignOk({ filename: 'p.bin', size: 10 }, { token: t.token });
    for (const slug of ['no-such-file', pending.slug]) {
      await expectError(await f.info(slug), 404);
      await expectError(await f.verify(slug, 'x'), 404);
      await expectError(await f.view(slug), 404);
      await expectError(await f.download(slug), 404);
    }
  });

  it('verifies an open file too (counts a view) and peeks on HEAD without counting', async () => {
    const share = await f.uploadOk(patternBytes(10), { token: t.token });
    expect((await t.request(`/api/public/files/${share.slug}`, { method: 'HEAD' })).status).toBe(200);
    expect((await f.view(share.slug, '', { method: 'HEAD' })).headers.get('content-length')).toBe('10');
    expect(await f.views(share.slug)).toBe(0);
    expect((await expectOk(await f.verify(share.slug, ''), publicFileSchema)).views).toBe(1);
    await expectError(await f.view(share.slug, '?token=123.abc'), 403);
    expect(await f.views(share.slug)).toBe(1);
  });
});

describe('GET /api/admin/dashboard/stats', () => {
  const t = useTestApp({ start: new Date('2030-03-10T23:30:00.000Z') });

  it('gives the last 7 UTC days oldest first', () => {
    expect(lastDays(new Date('2030-03-10T23:30:00.000Z'))).toEqual([
      '2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08', '2030-03-09', '2030-03-10',
    ]);
  });

  it('counts shares, keys, configs and storage, per bucket and per day', async () => {
    const f = fileClient(t);
    const quota = await expectOk(
      await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'quota', total_storage_bytes: 1000 } }),
      storageConfigSchema,
      201,
    );
    await t.createKey(t.token, { text_permission: true });
    const day = 24 * HOUR;
    const start = t.clock.now().getTime();
    // 8 days ago (outside), 3 days ago, today.
    t.clock.set(new Date(start - 8 * day));
    await t.request('/api/paste', { token: t.token, json: { content: 'old' } });
    await f.uploadOk(patternBytes(100), { token: t.token });
    t.clock.set(new Date(start - 3 * day));
    await t.request('/api/paste', { token: t.token, json: { content: 'a' } });
    await t.request('/api/paste', { token: t.token, json: { content: 'b' } });
    await f.uploadOk(patternBytes(250), { token: t.token }, { fields: { s3_config_id: quota.id } });
    t.clock.set(new Date(start));
    await f.uploadOk(patternBytes(50), { token: t.token });
    await f.presignOk({ filename: 'pending', size: 999 }, { token: t.token });

    const stats = await expectOk(await t.request('/api/admin/dashboard/stats', { token: t.token }), dashboardStatsSchema);
    expect(stats).toMatchObject({ totalPastes: 3, totalFiles: 3, totalApiKeys: 1, totalS3Configs: 2, totalStorageUsed: 400 });
    expect(stats.lastWeekPastes).toEqual([0, 0, 0, 2, 0, 0, 0]);
    expect(stats.lastWeekFiles).toEqual([0, 0, 0, 1, 0, 0, 1]);
    const local = stats.s3Buckets.find((bucket) => bucket.name === 'Local storage');
    expect(local).toMatchObject({ providerType: 'Local', bucketName: '', usedStorage: 150, fileCount: 2, totalStorage: null, usagePercent: null });
    expect(stats.s3Buckets.find((bucket) => bucket.id === quota.id)).toMatchObject({ usedStorage: 250, totalStorage: 1000, fileCount: 1, usagePercent: 25 });
  });
});
