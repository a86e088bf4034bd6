import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeySchema, createdApiKeySchema } from '../../../contract/api-keys';
import { fileShareSchema, presignResponseSchema } from '../../../contract/files';
import { fsEntrySchema, fsMultipartInitSchema, fsPartSchema, fsPresignSchema, fsUploadResultSchema } from '../../../contract/fs';
import { mountSchema } from '../../../contract/mounts';
import { multipartInitResponseSchema, multipartSignResponseSchema } from '../../../contract/multipart';
import { createdPasteSchema } from '../../../contract/pastes';
import { storageConfigSchema } from '../../../contract/storage';
import { systemSettingsSchema } from '../../../contract/system';
import { fileClient, md5 } from '../../../tests/fixtures/files';
import { createMount, fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/** What the strict schema said of a string where a number belongs, and still says of a non-numeric one. */
const notANumber = (text: string) => `Invalid type: Expected number but received "${text}"`;

/**
 * Requests as CloudPaste's frontend (commit 929c46ed) sends them: numbers as strings, `slug: ""`, `contentType:
 * null`, yes/no as strings (contract/lenient.ts), and the answers' names it reads.
 */
describe.each(['LOCAL', 'S3'] as const)('a mount upload as CloudPaste sends it, on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let root: string;
  let configId: string;

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    ({ root, configId, s3 } = await mountOfKind(t, t.token, kind, { at: '/bucket' }));
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('presigns with contentType null and a string size, answers CloudPaste\'s names, and commits what it sends back', async () => {
    const bytes = Buffer.from('hello');
    const presign = await expectOk(
      await fs.post('presign', { path: root, fileName: 'note.txt', contentType: null, fileSize: String(bytes.length) }),
      fsPresignSchema,
    );
    expect(presign).toMatchObject({
      targetPath: `${root}/note.txt`,
      contentType: expect.stringMatching(/^text\/plain/),
      presignedUrl: presign.uploadUrl,
      fileId: presign.key,
      s3Path: presign.key,
      s3ConfigId: configId,
    });
    expect((await fileClient(t).putTo(presign.presignedUrl, bytes, presign.contentType)).status).toBe(200);
    // CloudPaste commits `{...presignAnswer, etag, contentType, fileSize}`.
    const commit = { ...presign, etag: `"${md5(bytes)}"`, contentType: null, fileSize: String(bytes.length) };
    const done = await expectOk(await fs.post('presign/commit', commit), fsUploadResultSchema, 201);
    expect(done).toMatchObject({ path: `${root}/note.txt`, size: 5, mimetype: presign.contentType });

    const entry = await expectOk(await fs.get(`${root}/note.txt`), fsEntrySchema);
    expect(entry.contentType).toBe(entry.mimetype);
    expect(entry.contentType).toMatch(/^text\/plain/);
    expect((await fs.getOk(root)).contentType).toBeNull();
  });

  it('runs a multipart upload with contentType null and part numbers and sizes as strings', async () => {
    const bytes = Buffer.from('a few bytes in one part');
    const init = await expectOk(
      await fs.post('multipart/init', { path: root, filename: 'parts.txt', contentType: null, fileSize: String(bytes.length) }),
      fsMultipartInitSchema.options[0],
      201,
    );
    const part = await expectOk(await fs.part({ path: init.path, uploadId: init.uploadId, partNumber: '1', key: init.key, isLastPart: 'true' }, bytes), fsPartSchema);
    const done = await expectOk(
      await fs.post('multipart/complete', {
        path: init.path,
        uploadId: init.uploadId,
        key: init.key,
        parts: [{ partNumber: '1', etag: part.etag }],
        contentType: null,
        fileSize: String(bytes.length),
      }),
      fsUploadResultSchema,
      201,
    );
    expect(done).toMatchObject({ path: `${root}/parts.txt`, size: bytes.length, mimetype: expect.stringMatching(/^text\/plain/) });
  });

  it('still refuses a size that is no number, as before', async () => {
    const error = await expectError(await fs.post('presign', { path: root, fileName: 'x.bin', fileSize: 'abc' }), 400);
    expect(error.data).toMatchObject({ field: 'fileSize', issue: notANumber('abc') });
    const init = await expectError(await fs.post('multipart/init', { path: root, filename: 'x.bin', contentType: 42, fileSize: 1 }), 400);
    expect(init.data).toMatchObject({ field: 'contentType' });
  });
});

describe('share uploads and settings as CloudPaste sends them', () => {
  const t = useTestApp();

  it('takes slug "" as no slug and numeric strings as numbers through presign and commit', async () => {
    const bytes = Buffer.from('x'.repeat(36));
    const presign = await expectOk(
      await t.request('/api/s3/presign', { token: t.token, json: { filename: 'a.txt', mimetype: 'text/plain', slug: '', size: '36' } }),
      presignResponseSchema,
    );
    expect(presign.slug).toMatch(/^[A-Za-z0-9_-]{6}$/);
    expect((await fileClient(t).putTo(presign.upload_url, bytes, 'text/plain')).status).toBe(200);
    const share = await expectOk(
      await t.request('/api/s3/commit', {
        token: t.token,
        json: { file_id: presign.file_id, size: '36', slug: '', expires_in: '24', max_views: '3', remark: '', password: undefined },
      }),
      fileShareSchema,
      201,
    );
    expect(share).toMatchObject({ slug: presign.slug, size: 36, maxViews: 3 });
    expect(Date.parse(share.expiresAt ?? '') - t.clock.now().getTime()).toBe(24 * 3_600_000);

    // Edits: an empty slug keeps the one there; a string count is a count.
    const updated = await expectOk(await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'PUT', json: { slug: '', maxViews: '4' } }), fileShareSchema);
    expect(updated).toMatchObject({ slug: share.slug, maxViews: 4 });
  });

  it('still answers 400 for a size, a count or a slug that is wrong, as before', async () => {
    const size = await expectError(await t.request('/api/s3/presign', { token: t.token, json: { filename: 'a.txt', size: 'abc' } }), 400);
    expect(size.data).toMatchObject({ field: 'size', issue: notANumber('abc') });
    const negative = await expectError(await t.request('/api/s3/presign', { token: t.token, json: { filename: 'a.txt', size: '-1' } }), 400);
    expect(negative.data).toMatchObject({ field: 'size', issue: 'must_not_be_negative' });
    const views = await expectError(await t.request('/api/paste', { token: t.token, json: { content: 'hi', maxViews: '1e3' } }), 400);
    expect(views.data).toMatchObject({ field: 'maxViews', issue: notANumber('1e3') });
    const slug = await expectError(await t.request('/api/paste', { token: t.token, json: { content: 'hi', slug: 'admin' } }), 400);
    expect(slug.data).toMatchObject({ field: 'slug', issue: 'reserved' });
  });

  it('creates a paste with slug "" and maxViews as a string', async () => {
    const paste = await expectOk(await t.request('/api/paste', { token: t.token, json: { content: 'hello', slug: '', maxViews: '2' } }), createdPasteSchema, 201);
    expect(paste.slug).toMatch(/^[A-Za-z0-9_-]{6}$/);
    expect(paste.maxViews).toBe(2);
  });

  it('runs a share multipart upload with sizes, part numbers and options as strings', async () => {
    const init = await expectOk(
      await t.request('/api/s3/multipart/init', { token: t.token, json: { filename: 'big.bin', size: '6000000', part_size: '5242880', slug: '' } }),
      multipartInitResponseSchema,
    );
    expect(init.part_count).toBe(2);
    const signed = await expectOk(
      await t.request('/api/s3/multipart/sign', { token: t.token, json: { file_id: init.file_id, upload_id: init.upload_id, partNumbers: ['1', '2'] } }),
      multipartSignResponseSchema,
    );
    expect(signed.urls.map((url) => url.partNumber)).toEqual([1, 2]);
    const wrong = await expectError(
      await t.request('/api/s3/multipart/sign', { token: t.token, json: { file_id: init.file_id, upload_id: init.upload_id, partNumbers: ['one'] } }),
      400,
    );
    expect(wrong.data).toMatchObject({ field: 'partNumbers.0', issue: notANumber('one') });
  });

  it('takes yes/no and numbers as strings in API keys, storage configs, mounts and settings', async () => {
    const key = await expectOk(
      await t.request('/api/admin/api-keys', { token: t.token, json: { name: 'cp', text_permission: 'true', file_permission: 'false', mount_permission: true } }),
      createdApiKeySchema,
      201,
    );
    expect(key).toMatchObject({ text_permission: true, file_permission: false, mount_permission: true });
    const edited = await expectOk(await t.request(`/api/admin/api-keys/${key.id}`, { token: t.token, method: 'PUT', json: { file_permission: 'true' } }), apiKeySchema);
    expect(edited.file_permission).toBe(true);
    const yes = await expectError(await t.request('/api/admin/api-keys', { token: t.token, json: { name: 'cp2', text_permission: 'yes' } }), 400);
    expect(yes.data).toMatchObject({ field: 'text_permission', issue: 'Invalid type: Expected boolean but received "yes"' });

    const config = await expectOk(
      await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'disk', total_storage_bytes: '1000000', is_public: 'true' } }),
      storageConfigSchema,
      201,
    );
    expect(config).toMatchObject({ total_storage_bytes: 1_000_000, is_public: true });

    const mount = await createMount(t, t.token, { name: 'Disk', storage_config_id: config.id, mount_path: '/disk', sort_order: '3', cache_ttl: '60', is_active: 'false' });
    expect(mount).toMatchObject({ sort_order: 3, cache_ttl: 60, is_active: false });
    const active = await expectOk(await t.request(`/api/admin/mounts/${mount.id}`, { token: t.token, method: 'PUT', json: { is_active: 'true' } }), mountSchema);
    expect(active.is_active).toBe(true);

    const settings = await expectOk(await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: '50' } }), systemSettingsSchema);
    expect(settings.max_upload_size).toBe(50);
  });
});
