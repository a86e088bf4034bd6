import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeySchema } from '../../../contract/api-keys';
import { envelopeSchema } from '../../../contract/envelope';
import { directUploadSchema, fileListSchema, fileShareSchema, presignResponseSchema } from '../../../contract/files';
import { fsMultipartInitSchema, fsPartSchema, fsUploadResultSchema } from '../../../contract/fs';
import { adminPasteListSchema, createdPasteSchema, pasteDetailSchema } from '../../../contract/pastes';
import { publicFileSchema } from '../../../contract/public-file';
import { publicPasteSchema } from '../../../contract/public-paste';
import { storageConfigSchema } from '../../../contract/storage';
import { fileClient, md5, type Bytes } from '../../../tests/fixtures/files';
import { mountOfKind } from '../../../tests/fixtures/fs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp, type RequestOptions, type TestApp } from '../../../tests/fixtures/test-app';
import { SHARE_AREA } from '../../storage/keys';
import { driverFor } from '../../storage/registry';
import { retireShares } from '../file-shares/replacement';
import { releaseName, reserveName } from '../fs/name-reservations';
import { findStorageConfig } from '../storages/configs';
import { sweepStaleUploads } from '../upload-sweeper';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/** A path of CloudPaste's face: its frontend, built with `<origin>/compat/cloudpaste` as backend, asks these. */
const cp = (path: string) => `/compat/cloudpaste/api${path}`;

/** The body of a JSON answer, as CloudPaste's client reads it (no envelope assumed). */
async function json(res: Response): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  return (await res.json()) as Record<string, unknown>;
}

const paste = async (t: TestApp, auth: RequestOptions, body: Record<string, unknown>) =>
  expectOk(await t.request('/api/paste', { ...auth, json: body }), createdPasteSchema, 201);

describe('the paste page on the CloudPaste face', () => {
  const t = useTestApp();

  it('answers an open paste as the bare object the page reads, and counts the view', async () => {
    const { slug } = await paste(t, { token: t.token }, { content: 'hello from clipstash', remark: 'r' });
    const body = v.parse(publicPasteSchema, await json(await t.request(cp(`/paste/${slug}`))));
    expect(body).toMatchObject({ slug, content: 'hello from clipstash', hasPassword: false, requiresPassword: false, views: 1 });
    // `/api` keeps the envelope.
    expect(await expectOk(await t.request(`/api/paste/${slug}`), publicPasteSchema)).toMatchObject({ slug, views: 2 });
  });

  it('asks for the password with requiresPassword, opens with the right one and refuses a wrong one with 401', async () => {
    const { slug } = await paste(t, { token: t.token }, { content: 'secret text', password: 'pw' });
    const locked = await json(await t.request(cp(`/paste/${slug}`)));
    expect(locked).toMatchObject({ slug, hasPassword: true, requiresPassword: true });
    expect(locked).not.toHaveProperty('content');

    const opened = await json(await t.request(cp(`/paste/${slug}`), { json: { password: 'pw' } }));
    expect(opened).toMatchObject({ slug, content: 'secret text', requiresPassword: false });

    // Errors stay as they are: CloudPaste's client reads `message` off any failure.
    const wrong = await expectError(await t.request(cp(`/paste/${slug}`), { json: { password: 'nope' } }), 401);
    expect(wrong.data).toMatchObject({ field: 'password', issue: 'wrong' });
    await expectError(await t.request(cp('/paste/no-such-paste')), 404);
  });
});

describe('the lists on the CloudPaste face', () => {
  const t = useTestApp();
  let key: string;

  beforeAll(async () => {
    key = (await t.createKey(t.token, { text_permission: true, file_permission: true })).key;
    await paste(t, { token: t.token }, { content: 'admin paste' });
    await paste(t, { apiKey: key }, { content: 'key paste', maxViews: 3 });
    await fileClient(t).upload(Buffer.from('admin file'), { token: t.token }, { filename: 'a.txt' });
    await fileClient(t).upload(Buffer.from('key file'), { apiKey: key }, { filename: 'k.txt' });
  });

  it('answers the admin\'s pastes as `data[]` with `pagination` beside it, in CloudPaste\'s names too', async () => {
    const body = await json(await t.request(cp('/admin/pastes?page=1&limit=10'), { token: t.token }));
    expect(body).toMatchObject({ code: 200, success: true, pagination: { total: 2, page: 1, limit: 10 } });
    const pastes = body.data as Record<string, unknown>[];
    expect(pastes.map((item) => item.preview).sort()).toEqual(['admin paste', 'key paste']);
    const keyPaste = pastes.find((item) => item.preview === 'key paste');
    expect(keyPaste).toMatchObject({ max_views: 3, maxViews: 3, has_password: false, created_at: keyPaste?.createdAt, created_by: keyPaste?.createdBy });
    // `/api` is unchanged.
    expect((await expectOk(await t.request('/api/admin/pastes', { token: t.token }), adminPasteListSchema)).items).toHaveLength(2);
  });

  it('answers a key\'s pastes as `data[]` with `pagination`', async () => {
    const body = await json(await t.request(cp('/user/pastes?limit=10&offset=0'), { apiKey: key }));
    expect(body).toMatchObject({ success: true, pagination: { total: 1, limit: 10, offset: 0, hasMore: false } });
    expect((body.data as Record<string, unknown>[]).map((item) => item.preview)).toEqual(['key paste']);
  });

  it('answers the admin\'s and a key\'s file shares as `data.files` with `data.pagination`', async () => {
    const admin = await json(await t.request(cp('/admin/files?limit=50&offset=0'), { token: t.token }));
    const adminData = admin.data as { files: Record<string, unknown>[]; pagination: unknown };
    expect(adminData.files.map((file) => file.filename).sort()).toEqual(['a.txt', 'k.txt']);
    expect(adminData.files[0]).toMatchObject({ has_password: false, max_views: 0, expires_at: null });
    expect(adminData.pagination).toMatchObject({ total: 2, limit: 50, offset: 0 });

    const user = await json(await t.request(cp('/user/files'), { apiKey: key }));
    expect((user.data as { files: { filename: string }[] }).files.map((file) => file.filename)).toEqual(['k.txt']);
    expect((await expectOk(await t.request('/api/user/files', { apiKey: key }), fileListSchema)).items).toHaveLength(1);
  });

  it('passes a refusal through as it is', async () => {
    await expectError(await t.request(cp('/admin/files')), 401);
    await expectError(await t.request(cp('/admin/pastes?limit=0'), { token: t.token }), 400);
  });
});

describe('key and storage edits as CloudPaste sends them', () => {
  const t = useTestApp();

  it('takes `"expires_at": "never"` on a key edit (and creation) as no expiry', async () => {
    const created = await t.createKey(t.token, { expires_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString() });
    expect(created.expires_at).not.toBeNull();
    const edited = await expectOk(await t.request(cp(`/admin/api-keys/${created.id}`), { token: t.token, method: 'PUT', json: { expires_at: 'never' } }), apiKeySchema);
    expect(edited.expires_at).toBeNull();
    const fresh = await expectOk(await t.request(cp('/admin/api-keys'), { token: t.token, json: { name: 'forever', expires_at: 'never' } }), apiKeySchema, 201);
    expect(fresh.expires_at).toBeNull();
    const bad = await expectError(await t.request(cp(`/admin/api-keys/${created.id}`), { token: t.token, method: 'PUT', json: { expires_at: 'someday' } }), 400);
    expect(bad.data).toMatchObject({ field: 'expires_at' });
  });

  it('makes an S3 config of a `POST /api/s3-configs` without storage_type, and still refuses an unknown type', async () => {
    const json = {
      name: 'cp s3', provider_type: 'Cloudflare R2', endpoint_url: 'https://example.r2.cloudflarestorage.com', bucket_name: 'bucket',
      access_key_id: 'AK', secret_access_key: 'SK', region: 'auto', path_style: false,
    };
    const config = await expectOk(await t.request(cp('/s3-configs'), { token: t.token, json }), storageConfigSchema, 201);
    expect(config).toMatchObject({ storage_type: 'S3', name: 'cp s3', bucket_name: 'bucket' });
    await expectError(await t.request(cp('/s3-configs'), { token: t.token, json: { ...json, storage_type: 'B2' } }), 400);
    // A LOCAL config without S3's fields still needs its type.
    await expectError(await t.request('/api/s3-configs', { token: t.token, json: { name: 'disk' } }), 400);
  });

  it('answers a CORS preflight on the compat face as on /api', async () => {
    const preflight = (path: string) =>
      t.request(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://cloudpaste.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
      });
    const [compat, api] = [await preflight(cp('/admin/api-keys/x')), await preflight('/api/admin/api-keys/x')];
    expect(compat.status).toBe(api.status);
    expect(compat.headers.get('access-control-allow-origin')).toBe(api.headers.get('access-control-allow-origin'));
  });
});

describe('a CORS origin on the CloudPaste face', () => {
  const t = useTestApp({ env: { CORS_ORIGINS: 'https://cloudpaste.example' } });

  it('lets CloudPaste\'s origin in and keeps another out', async () => {
    const ask = (origin: string) =>
      t.request(cp('/admin/pastes'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    expect((await ask('https://cloudpaste.example')).headers.get('access-control-allow-origin')).toBe('https://cloudpaste.example');
    expect((await ask('https://elsewhere.example')).headers.get('access-control-allow-origin')).toBeNull();
    const list = await t.request(cp('/admin/pastes'), { token: t.token, headers: { origin: 'https://cloudpaste.example' } });
    expect(list.headers.get('access-control-allow-origin')).toBe('https://cloudpaste.example');
  });
});

describe('/upload as CloudPaste sends it, to S3', () => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let configId: string;

  beforeAll(async () => {
    ({ configId, s3 } = await mountOfKind(t, t.token, 'S3', { at: '/bucket' }));
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('presigns, takes the PUT and commits with `password: ""` as no password', async () => {
    const bytes = Buffer.from('uploaded by cloudpaste');
    const presign = await json(
      await t.request(cp('/s3/presign'), { token: t.token, json: { s3_config_id: configId, filename: 'cp.txt', mimetype: 'text/plain', slug: '', size: bytes.length } }),
    );
    const data = v.parse(presignResponseSchema, presign.data);
    expect((await fileClient(t).putTo(data.upload_url, bytes, data.contentType)).status).toBe(200);
    const commit = {
      file_id: data.file_id, s3_config_id: configId, storage_path: data.storage_path, s3_url: data.s3_url, filename: 'cp.txt',
      mimetype: data.contentType, size: String(bytes.length), etag: md5(bytes), slug: data.slug, remark: '', password: '', expires_in: '0', max_views: '0',
    };
    const share = await expectOk(await t.request(cp('/s3/commit'), { token: t.token, json: commit }), fileShareSchema, 201);
    expect(share).toMatchObject({ slug: data.slug, hasPassword: false, size: bytes.length });
    const open = await expectOk(await t.request(`/api/public/files/${share.slug}`), publicFileSchema);
    expect(open.requires_password).toBe(false);
  });

  it('still refuses a password that is too long', async () => {
    const presign = await expectOk(await t.request('/api/s3/presign', { token: t.token, json: { filename: 'x.txt', size: 1 } }), presignResponseSchema);
    const error = await expectError(await t.request(cp('/s3/commit'), { token: t.token, json: { file_id: presign.file_id, password: 'p'.repeat(129) } }), 400);
    expect(error.data).toMatchObject({ field: 'password', issue: 'too_long' });
  });
});

/** A mount upload as CloudPaste's explorer runs it: the folder as `path` on every call, the key from init. */
describe.each(['LOCAL', 'S3'] as const)('a multipart mount upload as CloudPaste sends it, on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let root: string;
  let keyed: RequestOptions;

  const post = (route: string, json: unknown, auth: RequestOptions = { token: t.token }) => t.request(cp(`/admin/fs/${route}`), { ...auth, json });
  const part = (area: 'admin' | 'user', query: Record<string, string>, bytes: Bytes, auth: RequestOptions = { token: t.token }) =>
    t.request(cp(`/${area}/fs/multipart/part?${new URLSearchParams(query)}`), {
      ...auth,
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    });
  const init = async (folder: string, filename: string, size: number, auth?: RequestOptions, area: 'admin' | 'user' = 'admin') =>
    expectOk(
      await t.request(cp(`/${area}/fs/multipart/init`), { ...(auth ?? { token: t.token }), json: { path: folder, contentType: null, fileSize: size, filename } }),
      fsMultipartInitSchema.options[0],
      201,
    );

  beforeAll(async () => {
    ({ root, s3 } = await mountOfKind(t, t.token, kind, { at: '/bucket' }));
    for (const folder of ['a', 'b']) {
      expect((await t.request('/api/admin/fs/mkdir', { token: t.token, json: { path: `${root}/${folder}` } })).ok).toBe(true);
    }
    keyed = { apiKey: (await t.createKey(t.token, { mount_permission: true, basic_path: `${root}/a` })).key };
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('takes the folder as path on part and complete when the key is a file right in it', async () => {
    const bytes = Buffer.from('parts from cloudpaste');
    const started = await init(root, 'cp.bin', bytes.length);
    const query = { path: root, uploadId: started.uploadId, partNumber: '1', isLastPart: 'true', key: started.key };
    const sent = await expectOk(await part('admin', query, bytes), fsPartSchema);
    const done = await expectOk(
      await post('multipart/complete', { path: root, uploadId: started.uploadId, parts: [{ partNumber: 1, etag: sent.etag }], key: started.key, contentType: null, fileSize: bytes.length }),
      fsUploadResultSchema,
      201,
    );
    expect(done).toMatchObject({ path: `${root}/cp.bin`, size: bytes.length });
    const read = await t.request(`/api/admin/fs/download?path=${encodeURIComponent(`${root}/cp.bin`)}`, { token: t.token });
    expect(await read.text()).toBe('parts from cloudpaste');
  });

  it('aborts with the folder as path', async () => {
    const started = await init(root, 'dropped.bin', 10);
    await expectOk(await post('multipart/abort', { path: root, uploadId: started.uploadId, key: started.key }), v.null());
    if (s3) expect(await s3.pendingUploads()).not.toContain(started.uploadId);
    const again = await expectError(await part('admin', { path: root, uploadId: started.uploadId, partNumber: '1', key: started.key }, Buffer.from('x')), 404);
    expect(again.data).toMatchObject({ field: 'uploadId' });
  });

  it('still refuses a key that is not a file right in the folder given', async () => {
    const started = await init(`${root}/a`, 'inner.bin', 10);
    // The key lies deeper than `root`: not a file right in it.
    const deeper = await expectError(await part('admin', { path: root, uploadId: started.uploadId, partNumber: '1', key: started.key }, Buffer.from('x')), 400);
    expect(deeper.data).toMatchObject({ field: 'key', issue: 'mismatch' });
    // A sibling folder's path.
    await expectError(await post('multipart/abort', { path: `${root}/b`, uploadId: started.uploadId, key: started.key }), 400);
    // A name that would climb out.
    const folderKey = started.key.slice(0, -'/inner.bin'.length);
    for (const key of [`${folderKey}/..`, `${folderKey}/.`, `${folderKey}/`]) {
      await expectError(await post('multipart/abort', { path: `${root}/a`, uploadId: started.uploadId, key }), 400);
    }
    await expectOk(await post('multipart/abort', { path: `${root}/a`, uploadId: started.uploadId, key: started.key }), v.null());
  });

  it('keeps a key to its base path: a folder outside it is refused before any key is looked at', async () => {
    const mine = await init(`${root}/a`, 'mine.bin', 10, keyed, 'user');
    await expectOk(await t.request(cp('/user/fs/multipart/abort'), { ...keyed, json: { path: `${root}/a`, uploadId: mine.uploadId, key: mine.key } }), v.null());
    const theirs = await init(`${root}/b`, 'theirs.bin', 10);
    const outside = await expectError(await t.request(cp('/user/fs/multipart/abort'), { ...keyed, json: { path: `${root}/b`, uploadId: theirs.uploadId, key: theirs.key } }), 403);
    expect(outside.data).toMatchObject({ error: 'forbidden' });
    // Its own folder with another folder's key: a mismatch, nothing of theirs touched.
    await expectError(await t.request(cp('/user/fs/multipart/abort'), { ...keyed, json: { path: `${root}/a`, uploadId: theirs.uploadId, key: theirs.key } }), 400);
    await expectOk(await post('multipart/abort', { path: `${root}/b`, uploadId: theirs.uploadId, key: theirs.key }), v.null());
  });
});

/** The edits of FileManagement.vue (and FileView.vue) and TextManagement.vue, as CloudPaste's dialogs build them. */
describe('editing shares as CloudPaste\'s lists send it', () => {
  const t = useTestApp();
  let key: string;
  const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();
  const put = (path: string, auth: RequestOptions, json: unknown) => t.request(cp(path), { ...auth, method: 'PUT', json });
  const fileOf = async (id: string) => expectOk(await t.request(`/api/admin/files/${id}`, { token: t.token }), fileShareSchema);
  const pasteOf = async (id: string) => expectOk(await t.request(`/api/admin/pastes/${id}`, { token: t.token }), pasteDetailSchema);

  beforeAll(async () => {
    key = (await t.createKey(t.token, { text_permission: true, file_permission: true })).key;
  });

  it('reads a file share in CloudPaste\'s names and edits it with `slug: null` (kept) and snake_case fields', async () => {
    const share = await fileClient(t).uploadOk(Buffer.from('edit me'), { token: t.token }, { filename: 'edit.txt' });
    // openEditModal(): the detail, whose `max_views`, `expires_at` and `has_password` fill the dialog.
    const detail = (await json(await t.request(cp(`/admin/files/${share.id}`), { token: t.token }))).data;
    expect(detail).toMatchObject({ id: share.id, slug: share.slug, max_views: 0, expires_at: null, has_password: false });

    // saveChanges() with the link field left empty: `slug: null`; FileView.vue sends the `id` too.
    const expiresAt = inHours(24);
    const edited = await json(await put(`/admin/files/${share.id}`, { token: t.token }, {
      id: share.id, slug: null, remark: 'a note', max_views: 5, use_proxy: true, password: 'pw', expires_at: expiresAt,
    }));
    expect(edited).toMatchObject({ code: 200, success: true, data: { slug: share.slug, max_views: 5, expires_at: expiresAt, has_password: true } });
    expect(await fileOf(share.id)).toMatchObject({ slug: share.slug, remark: 'a note', maxViews: 5, expiresAt, hasPassword: true });
    expect((await t.request(`/api/file-download/${share.slug}?password=pw`)).status).toBe(200);

    // A new link, and every "none" as CloudPaste writes it: remark null, max_views null, expires_at null, password "".
    await json(await put(`/admin/files/${share.id}`, { token: t.token }, {
      slug: 'cp-edited', remark: null, max_views: null, use_proxy: false, password: '', expires_at: null,
    }));
    expect(await fileOf(share.id)).toMatchObject({ slug: 'cp-edited', remark: null, maxViews: 0, expiresAt: null, hasPassword: false });
    // No password sent: the one set stays.
    await json(await put(`/admin/files/${share.id}`, { token: t.token }, { password: 'again' }));
    await json(await put(`/admin/files/${share.id}`, { token: t.token }, { slug: null, remark: 'kept password', max_views: null, expires_at: null }));
    expect(await fileOf(share.id)).toMatchObject({ slug: 'cp-edited', remark: 'kept password', hasPassword: true });
  });

  it('lets a key edit its own file shares from its list, and no one else\'s', async () => {
    const mine = await fileClient(t).uploadOk(Buffer.from('mine'), { apiKey: key }, { filename: 'mine.txt' });
    const admins = await fileClient(t).uploadOk(Buffer.from('theirs'), { token: t.token }, { filename: 'theirs.txt' });
    await json(await put(`/user/files/${mine.id}`, { apiKey: key }, { slug: null, remark: 'by the key', max_views: 2, expires_at: null, use_proxy: true }));
    expect(await fileOf(mine.id)).toMatchObject({ slug: mine.slug, remark: 'by the key', maxViews: 2 });
    await expectError(await put(`/user/files/${admins.id}`, { apiKey: key }, { slug: null, remark: 'not mine' }), 404);
    await expectError(await put(`/user/files/${mine.id}`, {}, { slug: null, remark: 'nobody' }), 401);
    expect((await fileOf(admins.id)).remark).toBeNull();
  });

  it('refuses a bad file edit as /api does, naming the field CloudPaste sent, and changes nothing', async () => {
    const share = await fileClient(t).uploadOk(Buffer.from('stays'), { token: t.token }, { filename: 'stays.txt' });
    await fileClient(t).uploadOk(Buffer.from('other'), { token: t.token }, { filename: 'other.txt', fields: { slug: 'cp-taken' } });
    const before = await fileOf(share.id);
    const edit = (body: unknown) => put(`/admin/files/${share.id}`, { token: t.token }, body);

    const negative = await expectError(await edit({ slug: null, max_views: -1 }), 400);
    expect(negative.data).toMatchObject({ field: 'max_views', issue: 'must_not_be_negative' });
    expect(negative.message).toBe('Invalid value for max_views: must_not_be_negative');
    expect((await expectError(await edit({ max_views: 'many' }), 400)).data).toMatchObject({ field: 'max_views' });
    expect((await expectError(await edit({ expires_at: 'tomorrow' }), 400)).data).toMatchObject({ field: 'expires_at' });
    expect((await expectError(await edit({ expires_at: inHours(-1) }), 400)).data).toMatchObject({ field: 'expires_at', issue: 'in_past' });
    expect((await expectError(await edit({ slug: 'no spaces' }), 400)).data).toMatchObject({ field: 'slug' });
    expect((await expectError(await edit({ slug: 'cp-taken', remark: 'lost' }), 409)).data).toMatchObject({ field: 'slug' });
    expect((await expectError(await edit({ password: 'p'.repeat(129) }), 400)).data).toMatchObject({ field: 'password', issue: 'too_long' });
    // In Chinese too; a body that is not JSON is refused as /api refuses it.
    const zh = await expectError(await t.request(cp(`/admin/files/${share.id}`), { token: t.token, method: 'PUT', json: { max_views: -1 }, headers: { 'accept-language': 'zh-CN' } }), 400);
    expect(zh.message).toContain('max_views');
    const notJson = await t.request(cp(`/admin/files/${share.id}`), { token: t.token, method: 'PUT', body: '{"slug":', headers: { 'content-type': 'application/json' } });
    expect((await expectError(notJson, 400)).data).toMatchObject({ issue: 'invalid_json' });
    // A body that is no object goes on as it came: /api's answer, whatever it is.
    const [faceStatus, apiStatus] = [(await edit('text')).status, (await t.request(`/api/admin/files/${share.id}`, { token: t.token, method: 'PUT', json: 'text' })).status];
    expect(faceStatus).toBe(apiStatus);
    await expectError(await put('/admin/files/no-such-id', { token: t.token }, { slug: null }), 404);
    // A body past /api's limit for JSON goes on unread, whole, and meets that limit.
    const huge = JSON.stringify({ remark: 'x'.repeat(12 * 1024 * 1024) });
    await expectError(await t.request(cp(`/admin/files/${share.id}`), { token: t.token, method: 'PUT', body: huge, headers: { 'content-type': 'application/json' } }), 413);
    expect(await fileOf(share.id)).toEqual(before);
  });

  it('edits a paste named by its slug, as TextManagement.vue and the paste page send it', async () => {
    const { id, slug } = await paste(t, { token: t.token }, { content: 'first words', slug: 'cp-paste', password: 'pw', remark: 'old' });
    // openEditModal(): getPasteById(id), whose `max_views` and `expires_at` fill the dialog.
    const detail = (await json(await t.request(cp(`/admin/pastes/${id}`), { token: t.token }))).data;
    expect(detail).toMatchObject({ id, slug, content: 'first words', max_views: 0, expires_at: null, has_password: true });

    // PasteEditModal.vue's saveEdit(): the current slug in the path and the body, the new one as `newSlug`.
    const expiresAt = inHours(168);
    const answer = await json(await put(`/admin/pastes/${slug}`, { token: t.token }, {
      id, slug, content: 'first words', remark: null, maxViews: null, newSlug: 'cp-renamed', clearPassword: true, expiresAt,
    }));
    expect(answer).toMatchObject({ success: true, data: { id, slug: 'cp-renamed' } });
    expect(await pasteOf(id)).toMatchObject({ slug: 'cp-renamed', remark: null, maxViews: 0, hasPassword: false, expiresAt });

    // PasteViewMain.vue's saveEdit(): new content and a password, the link unchanged (no `newSlug`).
    await json(await put('/admin/pastes/cp-renamed', { token: t.token }, { content: 'second words', remark: 'r', maxViews: 3, password: 'new', clearPassword: false, expiresAt: null }));
    expect(await pasteOf(id)).toMatchObject({ slug: 'cp-renamed', content: 'second words', remark: 'r', maxViews: 3, hasPassword: true, expiresAt: null });

    // The link field emptied: `newSlug: null`, a new random link as CloudPaste made.
    const renamed = await json(await put('/admin/pastes/cp-renamed', { token: t.token }, { slug: 'cp-renamed', content: 'second words', newSlug: null }));
    const random = (renamed.data as { slug: string }).slug;
    expect(random).toMatch(/^[A-Za-z0-9]{6,}$/);
    expect(await pasteOf(id)).toMatchObject({ slug: random, hasPassword: true });
  });

  it('lets a key edit its own paste by slug, and refuses a bad edit naming CloudPaste\'s field', async () => {
    const mine = await paste(t, { apiKey: key }, { content: 'key text', slug: 'cp-key-paste' });
    const admins = await paste(t, { token: t.token }, { content: 'admin text', slug: 'cp-admin-paste' });
    await json(await put('/user/pastes/cp-key-paste', { apiKey: key }, { content: 'key text, edited', remark: 'k', maxViews: null, expiresAt: null }));
    expect(await pasteOf(mine.id)).toMatchObject({ content: 'key text, edited', remark: 'k' });
    await expectError(await put('/user/pastes/cp-admin-paste', { apiKey: key }, { content: 'not mine' }), 404);
    await expectError(await put('/admin/pastes/no-such-paste', { token: t.token }, { content: 'x' }), 404);

    const edit = (body: unknown) => put('/admin/pastes/cp-admin-paste', { token: t.token }, body);
    expect((await expectError(await edit({ content: 'x', newSlug: 'cp-key-paste' }), 409)).data).toMatchObject({ field: 'newSlug' });
    const badSlug = await expectError(await edit({ content: 'x', newSlug: 'no spaces' }), 400);
    expect(badSlug.data).toMatchObject({ field: 'newSlug' });
    expect(badSlug.message).toContain('newSlug');
    expect((await expectError(await edit({ content: 'x', maxViews: -2 }), 400)).data).toMatchObject({ field: 'maxViews' });
    expect((await expectError(await edit({ content: '   ' }), 400)).data).toMatchObject({ field: 'content' });
    expect(await pasteOf(admins.id)).toMatchObject({ slug: 'cp-admin-paste', content: 'admin text', maxViews: 0 });
  });
});

describe('PUT /api/upload-direct/{filename}', () => {
  const t = useTestApp();
  let key: string;

  beforeAll(async () => {
    key = (await t.createKey(t.token, { file_permission: true })).key;
  });

  it('stores the body as a share with CloudPaste\'s query options and answers its names, on both faces', async () => {
    const bytes = Buffer.from('# notes\n');
    const res = await t.request(cp('/upload-direct/notes.md?slug=notes-1&remark=from%20a%20script&password=pw&expires_in=24&max_views=2'), {
      apiKey: key,
      method: 'PUT',
      body: bytes,
      // What `curl --data-binary` sends: the type comes from the name instead.
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const share = await expectOk(res, directUploadSchema);
    expect(share).toMatchObject({
      slug: 'notes-1', filename: 'notes.md', mimetype: 'text/markdown', size: bytes.length, remark: 'from a script',
      requires_password: true, hasPassword: true, max_views: 2, maxViews: 2, views: 0,
      previewUrl: 'http://localhost/api/file-view/notes-1', downloadUrl: 'http://localhost/api/file-download/notes-1',
    });
    expect(Date.parse(share.expires_at ?? '') - t.clock.now().getTime()).toBe(24 * 3_600_000);
    expect(share.created_by).toMatch(/^apikey:/);

    const locked = await t.request('/api/file-download/notes-1');
    expect(locked.status).toBe(401);
    const open = await t.request('/api/file-download/notes-1?password=pw');
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes)).toBe(true);

    const plain = await expectOk(await t.request('/api/upload-direct/plain.txt', { apiKey: key, method: 'PUT', body: Buffer.from('x') }), directUploadSchema);
    expect(plain).toMatchObject({ requires_password: false, max_views: null, expires_at: null, mimetype: expect.stringMatching(/^text\/plain/) });
  });

  it('takes the uploads of the curl examples in docs/coming-from-cloudpaste.md, over HTTP', async () => {
    const origin = await t.listen();
    const folder = mkdtempSync(join(tmpdir(), 'clipstash-direct-'));
    const curl = async (query: string) => {
      const url = `${origin}/api/upload-direct/report.pdf?${query}`;
      const { stdout } = await promisify(execFile)('curl', ['-sS', '-T', 'report.pdf', '-H', `Authorization: ApiKey ${key}`, url], { cwd: folder });
      return v.parse(envelopeSchema(directUploadSchema), JSON.parse(stdout)).data;
    };
    try {
      writeFileSync(join(folder, 'report.pdf'), Buffer.from('%PDF-1.4 not really'));
      const share = await curl('password=s3cret&expires_in=24&max_views=3');
      expect(share).toMatchObject({ filename: 'report.pdf', mimetype: 'application/pdf', size: 19, requires_password: true, max_views: 3 });
      // The new version under the same link: the first run makes the share, the next replaces it.
      const first = await curl('slug=report&override=true');
      writeFileSync(join(folder, 'report.pdf'), Buffer.from('%PDF-1.4 version 2'));
      const second = await curl('slug=report&override=true');
      expect(second).toMatchObject({ slug: 'report', size: 18 });
      expect(second.id).not.toBe(first.id);
      expect(await (await t.request('/api/file-download/report')).text()).toBe('%PDF-1.4 version 2');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses without the file permission, a taken slug and a bad count, storing nothing', async () => {
    const textOnly = (await t.createKey(t.token, { text_permission: true })).key;
    await expectError(await t.request('/api/upload-direct/a.txt', { apiKey: textOnly, method: 'PUT', body: Buffer.from('x') }), 403);
    await expectError(await t.request('/api/upload-direct/a.txt', { method: 'PUT', body: Buffer.from('x') }), 401);
    await expectOk(await t.request('/api/upload-direct/a.txt?slug=taken', { apiKey: key, method: 'PUT', body: Buffer.from('x') }), directUploadSchema);
    await expectError(await t.request(cp('/upload-direct/b.txt?slug=taken'), { apiKey: key, method: 'PUT', body: Buffer.from('y') }), 409);
    const views = await expectError(await t.request('/api/upload-direct/b.txt?max_views=many', { apiKey: key, method: 'PUT', body: Buffer.from('y') }), 400);
    expect(views.data).toMatchObject({ field: 'max_views' });
    const files = await expectOk(await t.request('/api/user/files', { apiKey: key }), fileListSchema);
    expect(files.items.map((file) => file.filename).sort()).toEqual(['a.txt', 'notes.md', 'plain.txt', 'report.pdf', 'report.pdf']);
  });
});

/** CloudPaste's `override` and `original_filename` (Api-s3_direct.md and s3UploadRoutes.js at 929c46ed). */
describe.each(['LOCAL', 'S3'] as const)('PUT /api/upload-direct/{filename} with override and original_filename, on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let configId: string;
  let key: string;
  let otherKey: string;

  /** A direct upload to the storage under test, as CloudPaste's scripts send it. */
  const upload = (name: string, query: Record<string, string>, bytes: string, apiKey = key) =>
    t.request(cp(`/upload-direct/${name}?${new URLSearchParams({ ...query, s3_config_id: configId })}`), { apiKey, method: 'PUT', body: Buffer.from(bytes) });
  const download = async (slug: string) => (await t.request(`/api/file-download/${slug}`)).text();
  /** Every object in the share area, and every record's object: the same set, or something was left behind. */
  const objectsAndRecords = async () => {
    const config = await findStorageConfig(t.db, configId);
    const objects = (await driverFor(t.deps, config!).listTree(SHARE_AREA)).objects.map((object) => object.key).sort();
    const records = (await t.db.selectFrom('files').select('storage_path').where('storage_config_id', '=', configId).execute()).map((row) => row.storage_path).sort();
    return { objects, records };
  };
  const expectNothingLeftBehind = async () => {
    const { objects, records } = await objectsAndRecords();
    expect(objects).toEqual(records);
  };

  beforeAll(async () => {
    ({ configId, s3 } = await mountOfKind(t, t.token, kind, { at: '/bucket' }));
    if (kind === 'S3') await t.request(`/api/s3-configs/${configId}`, { token: t.token, method: 'PUT', json: { is_public: true } });
    key = (await t.createKey(t.token, { file_permission: true })).key;
    otherKey = (await t.createKey(t.token, { file_permission: true })).key;
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('replaces the caller\'s share holding the slug with override=true: same link, new file, the old one gone', async () => {
    const first = await expectOk(await upload('first.txt', { slug: 'ov-slug', remark: 'old' }, 'first bytes'), directUploadSchema);
    await expectError(await upload('second.txt', { slug: 'ov-slug' }, 'refused'), 409);
    await expectError(await upload('second.txt', { slug: 'ov-slug', override: 'false' }, 'refused'), 409);

    const second = await expectOk(await upload('second.txt', { slug: 'ov-slug', override: 'true' }, 'second bytes'), directUploadSchema);
    expect(second).toMatchObject({ slug: 'ov-slug', filename: 'second.txt', remark: null, used_original_filename: false });
    expect(second.id).not.toBe(first.id);
    expect(await download('ov-slug')).toBe('second bytes');
    const mine = await expectOk(await t.request('/api/user/files', { apiKey: key }), fileListSchema);
    expect(mine.items.filter((file) => file.slug === 'ov-slug').map((file) => file.id)).toEqual([second.id]);
    await expectNothingLeftBehind();

    // override=true with a slug nobody holds is an ordinary upload.
    expect(await expectOk(await upload('fresh.txt', { slug: 'ov-fresh', override: 'true' }, 'fresh'), directUploadSchema)).toMatchObject({ slug: 'ov-fresh' });
  });

  it('never replaces another\'s share, and refuses bad flags, storing nothing', async () => {
    await expectOk(await upload('theirs.txt', { slug: 'ov-theirs' }, 'theirs'), directUploadSchema);
    const before = await objectsAndRecords();
    const refused = await expectError(await upload('mine.txt', { slug: 'ov-theirs', override: 'true' }, 'mine', otherKey), 403);
    expect(refused.data).toMatchObject({ field: 'slug' });
    // The admin neither: CloudPaste let only a share's creator replace it.
    const asAdmin = `/upload-direct/admin.txt?${new URLSearchParams({ slug: 'ov-theirs', override: 'true', s3_config_id: configId })}`;
    await expectError(await t.request(cp(asAdmin), { token: t.token, method: 'PUT', body: Buffer.from('admin') }), 403);
    expect((await expectError(await upload('x.txt', { override: 'yes' }, 'x'), 400)).data).toMatchObject({ field: 'override' });
    expect((await expectError(await upload('x.txt', { original_filename: '1' }, 'x'), 400)).data).toMatchObject({ field: 'original_filename' });
    expect(await download('ov-theirs')).toBe('theirs');
    expect(await objectsAndRecords()).toEqual(before);
  });

  it('stores under the file\'s own name with original_filename=true, and replaces only with override=true', async () => {
    const first = await expectOk(await upload('report.txt', { original_filename: 'true', path: 'docs' }, 'version 1'), directUploadSchema);
    expect(first).toMatchObject({ filename: 'report.txt', used_original_filename: true });
    expect(first.storage_path).toMatch(/(^|\/)docs\/report\.txt$/);
    expect(first.storage_path.startsWith(`${SHARE_AREA}/`)).toBe(true);

    const taken = await expectError(await upload('report.txt', { original_filename: 'true', path: 'docs' }, 'version 2'), 409);
    expect(taken.data).toMatchObject({ field: 'original_filename' });
    expect(await expectError(await upload('report.txt', { original_filename: 'true', path: 'docs', override: 'true' }, 'not theirs', otherKey), 403)).toBeDefined();
    expect(await download(first.slug)).toBe('version 1');

    // As CloudPaste: the same name again replaces it; the link it had now gives the new file.
    const second = await expectOk(await upload('report.txt', { original_filename: 'true', path: 'docs', override: 'true', remark: 'v2' }, 'version 2'), directUploadSchema);
    expect(second).toMatchObject({ slug: first.slug, storage_path: first.storage_path, used_original_filename: true, remark: 'v2', size: 9 });
    expect(second.id).not.toBe(first.id);
    expect(await download(first.slug)).toBe('version 2');
    await expectNothingLeftBehind();

    // Another folder, or without the flag: a name of its own.
    const elsewhere = await expectOk(await upload('report.txt', { original_filename: 'true', path: 'other' }, 'other'), directUploadSchema);
    expect(elsewhere.storage_path).toMatch(/(^|\/)other\/report\.txt$/);
    const prefixed = await expectOk(await upload('report.txt', { path: 'docs' }, 'prefixed'), directUploadSchema);
    expect(prefixed).toMatchObject({ used_original_filename: false });
    expect(prefixed.storage_path).toMatch(/(^|\/)docs\/[A-Za-z0-9]{10}-report\.txt$/);
    await expectNothingLeftBehind();
  });

  it('keeps the old share whole when the replacing upload fails, and one writer of a name at a time', async () => {
    const kept = await expectOk(await upload('kept.txt', { original_filename: 'true', slug: 'ov-kept' }, 'small'), directUploadSchema);
    const setMax = (mb: number) => t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: mb } });
    expect((await setMax(0.00001)).status).toBe(200);
    try {
      await expectError(await upload('kept.txt', { original_filename: 'true', override: 'true' }, 'far too large for the limit'), 413);
      await expectError(await upload('other.txt', { slug: 'ov-kept', override: 'true' }, 'far too large for the limit'), 413);
    } finally {
      expect((await setMax(100)).status).toBe(200);
    }
    expect(await download('ov-kept')).toBe('small');
    await expectNothingLeftBehind();

    // While another upload holds the name, a second one is told to wait, and stores nothing.
    const name = { configId, key: kept.storage_path.replace(/kept\.txt$/, 'busy.txt') };
    expect(await reserveName(t.deps, name, 'created', 60_000)).toBe(true);
    const busy = await expectError(await upload('busy.txt', { original_filename: 'true' }, 'busy'), 409);
    expect(busy.data).toMatchObject({ field: 'original_filename' });
    await releaseName(t.deps, name);
    await expectNothingLeftBehind();
  });

  it('leaves a replaced share the sweeper can finish when its removal fails after the commit', async () => {
    const share = await expectOk(await upload('retired.txt', {}, 'retired'), directUploadSchema);
    const row = await t.db.selectFrom('files').selectAll().where('id', '=', share.id).executeTakeFirstOrThrow();
    await t.db.transaction().execute((trx) => retireShares(trx, [row]));
    expect((await t.request(`/api/file-download/${share.slug}`)).status).toBe(404);
    expect((await expectOk(await t.request('/api/user/files', { apiKey: key }), fileListSchema)).items.map((file) => file.id)).not.toContain(share.id);
    expect(await sweepStaleUploads(t.deps)).toMatchObject({ removed: 1, failed: 0 });
    await expectNothingLeftBehind();
  });
});
