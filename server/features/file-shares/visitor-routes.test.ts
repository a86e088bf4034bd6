/**
 * The file-share flows end to end, the same tests against the embedded LOCAL storage and a real S3 service
 * (s3rver on 127.0.0.1): form upload, presign → PUT → commit, byte-identical downloads, ranges, passwords,
 * views, expiry, limits, the sweep of abandoned uploads, and deletes that really empty the storage.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { FILE_LINK_TTL_SECONDS, fileShareSchema, PRESIGN_TTL_SECONDS } from '../../../contract/files';
import { publicFileSchema } from '../../../contract/public-file';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { storageConfigSchema } from '../../../contract/storage';
import { bytesOf, fileClient, md5, patternBytes, sha256, type Auth } from '../../../tests/fixtures/files';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, HOUR, MINUTE, useTestApp } from '../../../tests/fixtures/test-app';
import { sweepStaleUploads } from '../upload-sweeper';

// Real S3 traffic and several scrypt hashes per test: room for two shared cores under load.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 20_000 });

interface StorageUnderTest {
  configId: string;
  /** Whether the storage itself (not our driver) holds an object at `key`. */
  holds(key: string): Promise<boolean>;
  /** Every object key the storage holds. */
  keys(): Promise<string[]>;
  /** Creates another config on the same storage with a quota, for the 413 tests. */
  withQuota(totalBytes: number): Promise<string>;
}

type Kind = 'LOCAL' | 'S3';

describe.each<Kind>(['LOCAL', 'S3'])('file shares on %s storage', (kind) => {
  const t = useTestApp();
  let key: CreatedApiKey;
  let s3: RunningS3rver | undefined;
  let storage: StorageUnderTest;
  let f: ReturnType<typeof fileClient>;
  const admin = (): Auth => ({ token: t.token });
  const on = () => ({ s3_config_id: storage.configId });

  beforeAll(async () => {
    key = await t.createKey(t.token, { file_permission: true });
    f = fileClient(t);
    if (kind === 'LOCAL') {
      const local = await f.builtinLocal(t.token);
      const root = (id: string) => join(t.dataDir, 'storage', id);
      const walk = (dir: string, prefix = ''): string[] =>
        existsSync(dir)
          ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
              entry.name.startsWith('.')
                ? []
                : entry.isDirectory()
                  ? walk(join(dir, entry.name), `${prefix}${entry.name}/`)
                  : [`${prefix}${entry.name}`],
            )
          : [];
      storage = {
        configId: local.id,
        holds: async (objectKey) => existsSync(join(root(local.id), ...objectKey.split('/'))),
        keys: async () => walk(root(local.id)),
        withQuota: async (total) =>
          (
            await expectOk(
              await t.request('/api/s3-configs', {
                token: t.token,
                json: { storage_type: 'LOCAL', name: 'small local', total_storage_bytes: total, is_public: true },
              }),
              storageConfigSchema,
              201,
            )
          ).id,
      };
    } else {
      const server = await startS3rver();
      s3 = server;
      const client = new S3Client({
        endpoint: server.endpoint,
        region: server.region,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
        forcePathStyle: true,
      });
      const created = await expectOk(
        await t.request('/api/s3-configs', { token: t.token, json: server.configRequest({ is_public: true }) }),
        storageConfigSchema,
        201,
      );
      storage = {
        configId: created.id,
        holds: async (objectKey) =>
          client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: objectKey })).then(
            () => true,
            () => false,
          ),
        keys: async () =>
          ((await client.send(new ListObjectsV2Command({ Bucket: server.bucket, MaxKeys: 1000 }))).Contents ?? []).map(
            (object) => object.Key ?? '',
          ),
        withQuota: async (total) =>
          (
            await expectOk(
              await t.request('/api/s3-configs', {
                token: t.token,
                json: server.configRequest({ name: 'small s3', total_storage_bytes: total, is_public: true, default_folder: 'quota' }),
              }),
              storageConfigSchema,
              201,
            )
          ).id,
      };
    }
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('uploads a form, streams it into storage and downloads it byte-identical', async () => {
    const bytes = patternBytes(300_000);
    const share = await f.uploadOk(bytes, admin(), { filename: 'report 2030 ü.pdf', type: 'application/pdf', fields: { ...on(), remark: 'q1' } });
    expect(share).toMatchObject({
      slug: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
      filename: 'report 2030 ü.pdf',
      mimetype: 'application/pdf',
      size: bytes.length,
      s3_config_id: storage.configId,
      etag: md5(bytes),
      remark: 'q1',
      hasPassword: false,
      expiresAt: null,
      maxViews: 0,
      views: 0,
      state: 'active',
      created_by: 'admin',
      created_at: t.clock.now().toISOString(),
    });
    expect(share.url).toBe(`/file/${share.slug}`);
    if (kind === 'S3') expect(share.s3_url).toBe(`${s3?.endpoint}/${s3?.bucket}/${share.storage_path.split('/').map(encodeURIComponent).join('/')}`);
    else expect(share.s3_url).toBeNull();
    expect(await storage.holds(share.storage_path)).toBe(true);

    const res = await f.download(share.slug);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="report 2030 _.pdf"; filename*=UTF-8''report%202030%20%C3%BC.pdf`);
    expect(res.headers.get('etag')).toBe(`"${md5(bytes)}"`);
    expect(sha256(await bytesOf(res))).toBe(sha256(bytes));
  });

  it('uploads by presign → PUT → commit, then downloads byte-identical', async () => {
    const bytes = patternBytes(200_000, 3);
    const presigned = await f.presignOk({ ...on(), filename: 'photo.png', mimetype: 'image/png', size: bytes.length }, admin());
    expect(presigned).toMatchObject({ contentType: 'image/png', expires_in: PRESIGN_TTL_SECONDS, provider_type: kind === 'S3' ? 'MinIO' : 'Local' });
    expect((await f.rowById(presigned.file_id))?.status).toBe('pending');
    // Not listed while pending.
    expect((await f.infoOk(presigned.slug).catch(() => null))).toBeNull();

    const put = await f.putTo(presigned.upload_url, bytes, presigned.contentType, { origin: 'http://app.example' });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(`"${md5(bytes)}"`);
    expect(put.headers.get('access-control-expose-headers')).toMatch(/ETag/);

    const committed = await f.commit({ file_id: presigned.file_id, remark: 'direct', max_views: 5, expires_in: 24 }, admin());
    const share = await expectOk(committed, fileShareSchema, 201);
    expect(share).toMatchObject({
      id: presigned.file_id,
      slug: presigned.slug,
      filename: 'photo.png',
      size: bytes.length,
      etag: md5(bytes),
      remark: 'direct',
      maxViews: 5,
      expiresAt: new Date(t.clock.now().getTime() + 24 * HOUR).toISOString(),
    });
    // Committing again answers the same record.
    expect(await expectOk(await f.commit({ file_id: presigned.file_id }, admin()), fileShareSchema, 200)).toEqual(share);
    expect(sha256(await bytesOf(await f.view(share.slug)))).toBe(sha256(bytes));
  });

  it('serves exact byte ranges (206), suffix ranges, 416 when unsatisfiable, and the whole file when If-Range differs', async () => {
    const bytes = patternBytes(10_000, 11);
    const { slug } = await f.uploadOk(bytes, admin(), { fields: on() });
    const open = { token: t.token };

    const part = await f.download(slug, '', { ...open, headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-1099/10000');
    expect(part.headers.get('content-length')).toBe('1000');
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    expect(await bytesOf(part)).toEqual(bytes.subarray(100, 1100));

    const tail = await f.view(slug, '', { ...open, headers: { range: 'bytes=-250' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 9750-9999/10000');
    expect(await bytesOf(tail)).toEqual(bytes.subarray(9750));

    const open_ended = await f.view(slug, '', { ...open, headers: { range: 'bytes=9990-' } });
    expect(await bytesOf(open_ended)).toEqual(bytes.subarray(9990));

    const beyond = await f.view(slug, '', { ...open, headers: { range: 'bytes=10000-10010' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */10000');

    const stale = await f.view(slug, '', { ...open, headers: { range: 'bytes=0-9', 'if-range': '"not-the-etag"' } });
    expect(stale.status).toBe(200);
    expect((await bytesOf(stale)).length).toBe(10_000);
  });

  it('serves HTML and SVG sandboxed with nosniff, inline or as attachment, never as active same-origin content', async () => {
    for (const [filename, type] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
    ]) {
      const { slug } = await f.uploadOk(new TextEncoder().encode('<script>alert(document.domain)</script>'), admin(), {
        filename,
        type,
        fields: on(),
      });
      for (const res of [await f.view(slug, '', { token: t.token }), await f.download(slug, '', { token: t.token })]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toBe('sandbox');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        await res.arrayBuffer();
      }
      expect((await f.view(slug, '', { token: t.token })).headers.get('content-disposition')).toMatch(/^inline; /);
    }
  });

  it('protects a file with a password: info without links, 401 "Wrong password", links after verify that count no more views', async () => {
    const bytes = patternBytes(5000, 5);
    const share = await f.uploadOk(bytes, admin(), { fields: { ...on(), password: 'open sesame' } });
    expect(share.hasPassword).toBe(true);
    const info = await f.infoOk(share.slug);
    expect(info).toMatchObject({ requires_password: true, hasPassword: true, views: 0, canEdit: false });
    expect(info.previewUrl).toBeUndefined();
    expect(info.downloadUrl).toBeUndefined();
    expect(info.id).toBeUndefined();
    expect(await f.views(share.slug)).toBe(0);

    const wrong = await expectError(await f.verify(share.slug, 'nope'), 401);
    expect(wrong.message).toBe('Wrong password');
    const wrongZh = await expectError(await f.verify(share.slug, 'nope', { headers: { 'accept-language': 'zh-CN' } }), 401);
    expect(wrongZh.message).toBe('密码错误');
    expect(await f.views(share.slug)).toBe(0);

    const verified = await expectOk(await f.verify(share.slug, 'open sesame'), publicFileSchema);
    expect(verified).toMatchObject({ requires_password: false, views: 1 });
    const previewUrl = verified.previewUrl ?? '';
    const downloadUrl = verified.downloadUrl ?? '';
    expect(previewUrl).toMatch(new RegExp(`^http://localhost/api/file-view/${share.slug}\\?token=`));
    expect(downloadUrl).toMatch(new RegExp(`^http://localhost/api/file-download/${share.slug}\\?token=`));
    for (let i = 0; i < 3; i++) {
      expect(sha256(await bytesOf(await f.getUrl(previewUrl)))).toBe(sha256(bytes));
      expect((await f.getUrl(downloadUrl)).headers.get('content-disposition')).toMatch(/^attachment; /);
    }
    expect(await f.views(share.slug)).toBe(1);

    // Without a token: the password is needed, and each read spends a view.
    await expectError(await f.download(share.slug), 401);
    await expectError(await f.download(share.slug, '?password=nope'), 401);
    const direct = await f.download(share.slug, '?password=open%20sesame');
    expect(sha256(await bytesOf(direct))).toBe(sha256(bytes));
    expect(await f.views(share.slug)).toBe(2);
  });

  it('counts views atomically: max_views readers succeed, the rest get 410; handed-out links still work for an hour', async () => {
    const share = await f.uploadOk(patternBytes(100), admin(), { fields: { ...on(), max_views: '3' } });
    const answers = await Promise.all(Array.from({ length: 12 }, () => f.info(share.slug)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 410)).toHaveLength(9);
    const last = await Promise.all(answers.filter((res) => res.status === 200).map((res) => expectOk(res, publicFileSchema)));
    expect(last.map((info) => info.views).sort()).toEqual([1, 2, 3]);
    expect(await f.views(share.slug)).toBe(3);
    const gone = await expectError(await f.info(share.slug), 410);
    expect(gone.message).toBe('This file has reached its view limit');
    await expectError(await f.download(share.slug), 410);

    const link = last[0]?.downloadUrl ?? '';
    expect((await f.getUrl(link)).status).toBe(200);
    t.clock.advance(FILE_LINK_TTL_SECONDS * 1000 + 1000);
    expect((await expectError(await f.getUrl(link), 403)).message).toMatch(/invalid or has expired/);
  });

  it('answers 410 once a file has expired (expires_in hours), for info and bytes alike', async () => {
    const share = await f.uploadOk(patternBytes(100), admin(), { fields: { ...on(), expires_in: '1' } });
    const info = await f.infoOk(share.slug);
    expect(info.expiresAt).toBe(new Date(t.clock.now().getTime() + HOUR).toISOString());
    const link = info.previewUrl ?? '';
    t.clock.advance(HOUR + MINUTE);
    expect((await expectError(await f.info(share.slug), 410)).message).toBe('This file has expired');
    await expectError(await f.view(share.slug), 410);
    await expectError(await f.getUrl(link), 410);
    // Still listed for the admin, as expired.
    const detail = await expectOk(await t.request(`/api/admin/files/${share.id}`, { token: t.token }), fileShareSchema);
    expect(detail.state).toBe('expired');
  });

  it('refuses over the max upload size with 413 {fileSize, maxUploadSize} and leaves nothing in storage', async () => {
    await f.setMaxUploadMb(t.token, 0.01); // 10 KiB: the setting takes fractions of a MB.
    try {
      const before = await storage.keys();
      const tooBig = await expectError(await f.upload(patternBytes(20_000), admin(), { fields: on() }), 413);
      expect(tooBig.data).toMatchObject({ error: 'too_large', fileSize: 20_000, maxUploadSize: 10_485 });
      expect(tooBig.message).toBe('The file (19.53 KB) is larger than the maximum upload size (10.24 KB)');
      expect(await storage.keys()).toEqual(before);

      const presigned = await expectError(await f.presign({ ...on(), filename: 'big.bin', size: 20_000 }, admin()), 413);
      expect(presigned.data).toMatchObject({ fileSize: 20_000, maxUploadSize: 10_485 });
      // Right at the limit is fine.
      await f.uploadOk(patternBytes(10_485), admin(), { fields: on() });
    } finally {
      await f.setMaxUploadMb(t.token, 100);
    }
  });

  it("takes CloudPaste's field order (file first, then s3_config_id, path and the rest) and leaves no staging file", async () => {
    const bytes = patternBytes(70_000, 5);
    const share = await f.uploadOk(bytes, admin(), { filename: 'late.bin', after: { mimetype: 'image/png', ...on(), path: 'spec/order', remark: 'file first' } });
    expect(share).toMatchObject({ s3_config_id: storage.configId, mimetype: 'image/png', remark: 'file first', size: bytes.length });
    expect(share.storage_path).toMatch(/^\.clipstash-shares\/spec\/order\/[A-Za-z0-9]{10}-late\.bin$/);
    expect(await storage.holds(share.storage_path)).toBe(true);
    expect(Buffer.from(await (await f.view(share.slug, '', { token: t.token })).arrayBuffer())).toEqual(Buffer.from(bytes));
    expect(readdirSync(join(t.dataDir, 'staging'))).toEqual([]);
    // A form that ends without its file part, fields after nothing.
    const empty = new FormData();
    empty.append('s3_config_id', storage.configId);
    expect((await expectError(await t.request('/api/upload', { token: t.token, method: 'POST', body: empty }), 400)).data).toMatchObject({ field: 'file' });
  });

  it('stops an oversize file at the max upload size in either order, and at the quota once the config is known', async () => {
    await f.setMaxUploadMb(t.token, 0.01);
    try {
      const before = await storage.keys();
      for (const order of [{ fields: on() }, { after: on() }]) {
        const tooBig = await expectError(await f.upload(patternBytes(20_000), admin(), order), 413);
        expect(tooBig.data).toMatchObject({ error: 'too_large', fileSize: 20_000, maxUploadSize: 10_485 });
      }
      expect(await storage.keys()).toEqual(before);
      expect(readdirSync(join(t.dataDir, 'staging'))).toEqual([]);
    } finally {
      await f.setMaxUploadMb(t.token, 100);
    }
    const small = await storage.withQuota(10_000);
    const before = await storage.keys();
    const over = await expectError(await f.upload(patternBytes(12_000), admin(), { after: { s3_config_id: small } }), 413);
    expect(over.data).toMatchObject({ fileSize: 12_000, remaining: 10_000, total: 10_000 });
    expect(await storage.keys()).toEqual(before);
    expect(readdirSync(join(t.dataDir, 'staging'))).toEqual([]);
  });

  it('refuses past the quota with 413 {fileSize, remaining, total} and counts pending uploads against it', async () => {
    const small = await storage.withQuota(50_000);
    await f.uploadOk(patternBytes(30_000), admin(), { fields: { s3_config_id: small } });
    const before = await storage.keys();
    const over = await expectError(await f.upload(patternBytes(25_000), admin(), { fields: { s3_config_id: small } }), 413);
    expect(over.data).toMatchObject({ error: 'too_large', fileSize: 25_000, remaining: 20_000, total: 50_000 });
    expect(over.message).toBe('Insufficient storage: the file is 24.41 KB, 19.53 KB of 48.83 KB remain');
    expect(await storage.keys()).toEqual(before);

    const pending = await f.presignOk({ s3_config_id: small, filename: 'x.bin', size: 15_000 }, admin());
    const presignOver = await expectError(await f.presign({ s3_config_id: small, filename: 'y.bin', size: 10_000 }, admin()), 413);
    expect(presignOver.data).toMatchObject({ fileSize: 10_000, remaining: 5_000, total: 50_000 });
    await t.request(`/api/admin/files/${pending.file_id}`, { token: t.token, method: 'DELETE' });
  });

  it('sweeps a never-committed upload with its object once the presign lifetime has passed', async () => {
    const bytes = patternBytes(4000, 9);
    const presigned = await f.presignOk({ ...on(), filename: 'abandoned.bin', size: bytes.length }, { apiKey: key.key });
    expect((await f.putTo(presigned.upload_url, bytes, presigned.contentType)).status).toBe(200);
    expect(await storage.holds(presigned.storage_path)).toBe(true);

    t.clock.advance(PRESIGN_TTL_SECONDS * 1000 - MINUTE);
    await sweepStaleUploads(t.deps);
    expect(await f.rowById(presigned.file_id)).toBeDefined();

    t.clock.advance(2 * MINUTE);
    const swept = await sweepStaleUploads(t.deps);
    expect(swept.removed).toBeGreaterThanOrEqual(1);
    expect(await f.rowById(presigned.file_id)).toBeUndefined();
    expect(await storage.holds(presigned.storage_path)).toBe(false);
  });

  it('refuses a commit before the PUT (400) and one whose object has another size (400, object removed)', async () => {
    const presigned = await f.presignOk({ ...on(), filename: 'late.bin', size: 1000 }, admin());
    const early = await expectError(await f.commit({ file_id: presigned.file_id }, admin()), 400);
    expect(early.message).toBe('The uploaded file was not found in storage');

    const short = await f.presignOk({ ...on(), filename: 'short.bin', size: 1000 }, admin());
    expect((await f.putTo(short.upload_url, patternBytes(600), short.contentType)).status).toBe(200);
    const mismatch = await expectError(await f.commit({ file_id: short.file_id }, admin()), 400);
    expect(mismatch.message).toBe('The storage holds 600 bytes, not the declared 1000');
    expect(await storage.holds(short.storage_path)).toBe(false);
    // The upload record stays pending for a retry (or the sweep), unlisted.
    expect((await f.rowById(short.file_id))?.status).toBe('pending');
  });

  it('lets a client delete its own half-created record after a failed PUT, partial object included', async () => {
    const presigned = await f.presignOk({ ...on(), filename: 'failed.bin', size: 5000 }, { apiKey: key.key });
    expect((await f.putTo(presigned.upload_url, patternBytes(1000), presigned.contentType)).status).toBe(200);
    expect(await storage.holds(presigned.storage_path)).toBe(true);
    const other = await t.createKey(t.token, { file_permission: true });
    await expectError(await t.request(`/api/user/files/${presigned.file_id}`, { apiKey: other.key, method: 'DELETE' }), 404);
    const res = await t.request(`/api/user/files/${presigned.file_id}`, { apiKey: key.key, method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await f.rowById(presigned.file_id)).toBeUndefined();
    expect(await storage.holds(presigned.storage_path)).toBe(false);
  });

  it('deletes the storage object with the record, one by one and in batches', async () => {
    const one = await f.uploadOk(patternBytes(1000), { apiKey: key.key }, { fields: on() });
    const two = await f.uploadOk(patternBytes(1000), admin(), { fields: on() });
    const three = await f.uploadOk(patternBytes(1000), admin(), { fields: on() });
    for (const share of [one, two, three]) expect(await storage.holds(share.storage_path)).toBe(true);

    expect((await t.request(`/api/user/files/${one.id}`, { apiKey: key.key, method: 'DELETE' })).status).toBe(200);
    expect(await storage.holds(one.storage_path)).toBe(false);
    await expectError(await f.info(one.slug), 404);

    const batch = await t.request('/api/admin/files/batch-delete', { token: t.token, json: { ids: [two.id, three.id, 'nope'] } });
    expect(await expectOk(batch, batchDeleteResultSchema, 202)).toEqual({ deleted: 2, missing: 1, failed: 0 });
    expect(await storage.holds(two.storage_path)).toBe(false);
    expect(await storage.holds(three.storage_path)).toBe(false);
  });

  it('shows the owner everything without counting a view', async () => {
    const share = await f.uploadOk(patternBytes(100), { apiKey: key.key }, { fields: { ...on(), password: 'pw', max_views: '1' } });
    const asOwner = await f.infoOk(share.slug, { apiKey: key.key });
    expect(asOwner).toMatchObject({ canEdit: true, id: share.id, requires_password: false, views: 0 });
    expect(asOwner.downloadUrl).toBeDefined();
    const asAdmin = await f.infoOk(share.slug, { token: t.token });
    expect(asAdmin).toMatchObject({ canEdit: true, id: share.id });
    expect((await f.download(share.slug, '', { apiKey: key.key })).status).toBe(200);
    expect(await f.views(share.slug)).toBe(0);
  });
});
