/**
 * File requests through HTTP on LOCAL and s3rver: a creator makes a request, senders without an account get a grant
 * and upload in parts (real HTTP PUTs to the signed URLs), and every limit, the grant, the folder's confinement and
 * name collisions hold at init and at completion.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  fileRequestGrantSchema,
  fileRequestInitResponseSchema,
  fileRequestListSchema,
  fileRequestSchema,
  fileRequestUploadListSchema,
  fileRequestUploadSchema,
  publicFileRequestSchema,
  type CreateFileRequest,
  type FileRequestInitResponse,
} from '../../../contract/file-requests';
import { PRESIGN_TTL_SECONDS } from '../../../contract/files';
import { multipartSignResponseSchema } from '../../../contract/multipart';
import { MIN_PART_BYTES, planUpload } from '../../../contract/parts';
import { sweepAsLeader } from '../upload-sweeper';
import { bytesOf, fileClient, patternBytes, sha256, type Auth } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import { S3RVER_LONGEST_NAME_BYTES, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { FS_NAME_MAX_BYTES } from '../../../contract/fs-paths';
import { expectError, expectOk, HOUR, useTestApp } from '../../../tests/fixtures/test-app';
import { FILE_REQUEST_GRANTS_PER_WINDOW } from './routes';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type Kind = 'LOCAL' | 'S3' | 'WEBDAV';
/** Where parts go to this server's own upload route (LOCAL, and WebDAV's staging) rather than to a signed S3 URL. */
const throughServer = (kind: Kind) => kind !== 'S3';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), patternBytes(3000, 3)]);
const TEXT = Buffer.from('just some words\n');

describe.each<Kind>(['LOCAL', 'S3', 'WEBDAV'])('file requests on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let stopStorage: () => Promise<void> = async () => undefined;
  let fs: ReturnType<typeof fsClient>;
  /** The mount under test. */
  let root: string;
  /** Writes a file into the mount's storage behind the app's back. */
  let plant: (inner: string, bytes: Buffer) => Promise<void>;
  let count = 0;
  const admin = (): Auth => ({ token: t.token });

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    // On S3 the default storage, so that a shares request's files are stored there too.
    const mount = await mountOfKind(t, t.token, kind, { config: { default_folder: 'mounted', is_default: true, is_public: true }, mount: { cache_ttl: 0 } });
    ({ root, s3 } = mount);
    stopStorage = mount.stop;
    plant =
      kind === 'LOCAL'
        ? async (inner, bytes) => {
            const file = join(t.dataDir, 'storage', mount.configId, ...inner.split('/'));
            mkdirSync(join(file, '..'), { recursive: true });
            writeFileSync(file, bytes);
          }
        : async (inner, bytes) => {
            await fs.uploadOk(`${root}/${inner.split('/').slice(0, -1).join('/')}`, inner.split('/').pop() ?? '', new Uint8Array(bytes));
          };
  });
  afterAll(() => stopStorage());

  const create = async (body: Partial<CreateFileRequest> = {}, auth: Auth = admin()) =>
    expectOk(
      await t.request('/api/file-requests', { ...auth, json: { title: 'Send me things', target: { kind: 'folder', path: `${root}/inbox-${++count}/` }, ...body } }),
      fileRequestSchema,
      201,
    );
  const grantRes = (slug: string, body: Record<string, unknown> = {}, ip?: string) =>
    t.request(`/api/public/file-requests/${slug}/grant`, { json: body, ...(ip && { ip }) });
  const grantOf = async (slug: string, body: Record<string, unknown> = {}) => (await expectOk(await grantRes(slug, body), fileRequestGrantSchema, 201)).grant;
  const asSender = (grant: string) => ({ headers: { authorization: `FileRequest ${grant}` } });
  const call = (slug: string, step: string, grant: string | undefined, json: unknown) =>
    t.request(`/api/public/file-requests/${slug}/multipart/${step}`, { json, ...(grant !== undefined && asSender(grant)) });
  const init = (slug: string, grant: string | undefined, filename: string, size: number) =>
    call(slug, 'init', grant, { filename, size, part_size: planUpload(size).partSize });
  const initOk = async (slug: string, grant: string, filename: string, size: number): Promise<FileRequestInitResponse> =>
    expectOk(await init(slug, grant, filename, size), fileRequestInitResponseSchema, 201);

  /** Every part signed and PUT over real HTTP; answers the list for complete. */
  async function sendParts(slug: string, grant: string, ref: FileRequestInitResponse, bytes: Buffer) {
    const parts = [];
    for (let partNumber = 1; partNumber <= ref.part_count; partNumber++) {
      const signed = await expectOk(await call(slug, 'sign', grant, { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers: [partNumber] }), multipartSignResponseSchema);
      const body = bytes.subarray((partNumber - 1) * ref.part_size, partNumber * ref.part_size);
      const res = await fetch(await t.overHttp(signed.urls[0]?.url ?? ''), { method: 'PUT', body: new Uint8Array(body) });
      expect(res.status, await res.clone().text()).toBe(200);
      parts.push({ partNumber, etag: (res.headers.get('etag') ?? '').replace(/"/g, '') });
    }
    return parts;
  }
  const complete = (slug: string, grant: string, ref: FileRequestInitResponse, parts: { partNumber: number; etag: string }[]) =>
    call(slug, 'complete', grant, { file_id: ref.file_id, upload_id: ref.upload_id, parts });
  /** A whole upload; answers complete's response. */
  async function send(slug: string, grant: string, filename: string, bytes: Buffer) {
    const ref = await initOk(slug, grant, filename, bytes.length);
    return complete(slug, grant, ref, await sendParts(slug, grant, ref, bytes));
  }
  const sendOk = async (slug: string, grant: string, filename: string, bytes: Buffer) =>
    expectOk(await send(slug, grant, filename, bytes), fileRequestUploadSchema, 201);
  const info = async (slug: string) => expectOk(await t.request(`/api/public/file-requests/${slug}`), publicFileRequestSchema);
  const received = async (id: string, auth: Auth = admin()) => (await expectOk(await t.request(`/api/file-requests/${id}/uploads`, auth), fileRequestUploadListSchema)).items;
  const patch = (id: string, json: unknown) => t.request(`/api/file-requests/${id}`, { token: t.token, method: 'PATCH', json });

  it('lands files in its folder under free names, byte-identical, listed with their sender', async () => {
    const request = await create({ message: 'Hello' });
    const folder = request.target.kind === 'folder' ? request.target.path : '';
    expect(folder).toBe(`${root}/inbox-${count}/`);
    await plant(`inbox-${count}/taken.txt`, Buffer.from('already here'));
    expect(await info(request.slug)).toMatchObject({ title: 'Send me things', message: 'Hello', state: 'open', files_received: 0, has_password: false });

    const grant = await grantOf(request.slug, { sender_name: 'Ada' });
    const big = patternBytes(MIN_PART_BYTES + 1234, 9);
    expect(await sendOk(request.slug, grant, 'big.bin', big)).toMatchObject({ filename: 'big.bin', size: big.length, sender_name: 'Ada', path: `${folder}big.bin` });
    expect((await sendOk(request.slug, grant, 'big.bin', TEXT)).path).toBe(`${folder}big (1).bin`);
    expect((await sendOk(request.slug, grant, 'taken.txt', TEXT)).path).toBe(`${folder}taken (1).txt`);
    // A name with a path in it keeps only its last segment: nothing lands beside the folder.
    expect((await sendOk(request.slug, grant, '../../escape.txt', TEXT)).path).toBe(`${folder}escape.txt`);
    expect((await init(request.slug, grant, '..', 10)).status).toBe(400);

    expect(sha256(await bytesOf(await fs.download(`${folder}big.bin`)))).toBe(sha256(big));
    expect(await bytesOf(await fs.download(`${folder}taken.txt`))).toEqual(Buffer.from('already here'));
    expect((await fs.names(folder, true)).sort()).toEqual(['big (1).bin', 'big.bin', 'escape.txt', 'taken (1).txt', 'taken.txt']);
    const items = await received(request.id);
    expect(items.map((item) => item.filename).sort()).toEqual(['big (1).bin', 'big.bin', 'escape.txt', 'taken (1).txt']);
    expect(items.every((item) => item.sender_name === 'Ada')).toBe(true);
    // Each keeps the name it was sent with beside the one it is stored under.
    expect(items.map((item) => [item.filename, item.sent_name]).sort()).toEqual([
      ['big (1).bin', 'big.bin'],
      ['big.bin', 'big.bin'],
      ['escape.txt', 'escape.txt'],
      ['taken (1).txt', 'taken.txt'],
    ]);
    expect(await info(request.slug)).toMatchObject({ files_received: 4, bytes_received: big.length + 3 * TEXT.length });
    const list = await expectOk(await t.request('/api/file-requests', admin()), fileRequestListSchema);
    expect(list.items.find((item) => item.id === request.id)).toMatchObject({ files_received: 4 });
  });

  it('gives 16 senders of one name at once 16 files, each byte-exact', async () => {
    const request = await create();
    const folder = request.target.kind === 'folder' ? request.target.path : '';
    const senders = Array.from({ length: 16 }, (_, n) => patternBytes(100 + n, n + 1));
    const sent = await Promise.all(senders.map(async (bytes) => sendOk(request.slug, await grantOf(request.slug), 'same.txt', bytes)));
    const paths = sent.map((upload) => upload.path);
    expect(new Set(paths).size).toBe(16);
    expect(paths).toContain(`${folder}same.txt`);
    expect((await fs.names(folder, true)).length).toBe(16);
    for (const [n, upload] of sent.entries()) {
      expect(sha256(await bytesOf(await fs.download(upload.path ?? '')))).toBe(sha256(senders[n] ?? Buffer.alloc(0)));
    }
    expect((await received(request.id)).length).toBe(16);
  });

  it('refuses a file over the per-file limit (413) or of a type not allowed (400) before any byte', async () => {
    const request = await create({ max_file_size: 100, allowed_types: ['.pdf', 'image/*'] });
    const grant = await grantOf(request.slug);
    expect((await expectError(await init(request.slug, grant, 'a.pdf', 101), 413)).data).toMatchObject({ limit: 100 });
    expect((await expectError(await init(request.slug, grant, 'a.txt', 10), 400)).data).toMatchObject({ issue: 'type_not_allowed' });
    expect((await init(request.slug, grant, 'a.PNG', 10)).status).toBe(201);
  });

  it("holds files to the server's maximum upload where the request allows more, and says so to the sender", async () => {
    const request = await create({ max_file_size: 500 * 1024 * 1024 });
    const unlimited = await create();
    const setMax = (mb: number) => t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: mb } });
    expect((await setMax(1)).status).toBe(200);
    try {
      expect((await info(request.slug)).max_file_size).toBe(1024 * 1024);
      expect((await info(unlimited.slug)).max_file_size).toBe(1024 * 1024);
      const grant = await grantOf(request.slug);
      expect((await expectError(await init(request.slug, grant, 'big.bin', 1024 * 1024 + 1), 413)).data).toMatchObject({ limit: 1024 * 1024 });
      expect((await init(request.slug, grant, 'fits.bin', 1024 * 1024)).status).toBe(201);
    } finally {
      expect((await setMax(100)).status).toBe(200);
    }
    // The request's own limit where it is the smaller one.
    expect((await info((await create({ max_file_size: 100 })).slug)).max_file_size).toBe(100);
  });

  it('counts files (409) and bytes (413) with the uploads still running, and gives a place back on abort', async () => {
    const request = await create({ max_files: 2, max_total_size: 100 });
    const grant = await grantOf(request.slug);
    const first = await initOk(request.slug, grant, 'one.txt', 60);
    expect((await expectError(await init(request.slug, grant, 'two.txt', 41), 413)).data).toMatchObject({ limit: 100 });
    await initOk(request.slug, grant, 'two.txt', 40);
    await expectError(await init(request.slug, grant, 'three.txt', 1), 409);
    expect((await call(request.slug, 'abort', grant, { file_id: first.file_id, upload_id: first.upload_id })).status).toBe(200);
    await initOk(request.slug, grant, 'three.txt', 10);
  });

  it('checks the limits again at completion, and the size the parts add up to', async () => {
    const request = await create({ max_total_size: 1000 });
    const grant = await grantOf(request.slug);
    const ref = await initOk(request.slug, grant, 'late.txt', 500);
    const parts = await sendParts(request.slug, grant, ref, patternBytes(500, 1));
    expect((await patch(request.id, { max_total_size: 400 })).status).toBe(200);
    await expectError(await complete(request.slug, grant, ref, parts), 413);
    expect((await patch(request.id, { max_total_size: null, max_file_size: 499 })).status).toBe(200);
    await expectError(await complete(request.slug, grant, ref, parts), 413);
    expect((await patch(request.id, { max_file_size: null, allowed_types: ['.pdf'] })).status).toBe(200);
    await expectError(await complete(request.slug, grant, ref, parts), 400);
    expect((await patch(request.id, { allowed_types: [] })).status).toBe(200);
    expect((await complete(request.slug, grant, ref, parts)).status).toBe(201);

    const short = await initOk(request.slug, grant, 'short.txt', 300);
    const shortParts = await sendParts(request.slug, grant, short, patternBytes(200, 2));
    expect((await expectError(await complete(request.slug, grant, short, shortParts), 400)).data).toMatchObject({ issue: 'size_mismatch' });
  });

  it('stores a name as long as the storage holds, and refuses a longer one at init with name_too_long (400)', async () => {
    const request = await create();
    const grant = await grantOf(request.slug);
    const longest = `${'n'.repeat((kind === 'LOCAL' ? FS_NAME_MAX_BYTES : S3RVER_LONGEST_NAME_BYTES) - 4)}.txt`;
    expect((await sendOk(request.slug, grant, longest, TEXT)).filename).toBe(longest);
    const refused = await expectError(await init(request.slug, grant, `${'n'.repeat(FS_NAME_MAX_BYTES - 3)}.txt`, 10), 400);
    expect(refused.data).toMatchObject({ field: 'filename', issue: 'name_too_long', maxBytes: FS_NAME_MAX_BYTES });
    expect(refused.message).toContain(`${FS_NAME_MAX_BYTES} bytes`);
  });

  it('refuses bytes that are not what the name says where types are limited, and keeps nothing of them', async () => {
    const request = await create({ allowed_types: ['.pdf'] });
    const folder = request.target.kind === 'folder' ? request.target.path : '';
    const grant = await grantOf(request.slug);
    expect((await expectError(await send(request.slug, grant, 'fake.pdf', TEXT), 400)).data).toMatchObject({ issue: 'type_mismatch' });
    expect((await sendOk(request.slug, grant, 'real.pdf', PDF)).filename).toBe('real.pdf');
    expect(await fs.names(folder, true)).toEqual(['real.pdf']);
    expect((await received(request.id)).map((item) => item.filename)).toEqual(['real.pdf']);
  });

  it('says a closed, expired or full request is so, and takes nothing more (410, 410, 409)', async () => {
    const closed = await create();
    const grant = await grantOf(closed.slug);
    const running = await initOk(closed.slug, grant, 'a.txt', TEXT.length);
    expect((await patch(closed.id, { closed: true })).status).toBe(200);
    expect((await info(closed.slug)).state).toBe('closed');
    await expectError(await grantRes(closed.slug), 410);
    await expectError(await init(closed.slug, grant, 'b.txt', 10), 410);
    await expectError(await call(closed.slug, 'sign', grant, { file_id: running.file_id, upload_id: running.upload_id, partNumbers: [1] }), 410);

    const expiring = await create({ expires_at: new Date(t.clock.now().getTime() + HOUR).toISOString() });
    const expiringGrant = await grantOf(expiring.slug);
    t.clock.advance(HOUR);
    expect((await info(expiring.slug)).state).toBe('expired');
    await expectError(await grantRes(expiring.slug), 410);
    await expectError(await init(expiring.slug, expiringGrant, 'b.txt', 10), 410);

    const full = await create({ max_files: 1 });
    await sendOk(full.slug, await grantOf(full.slug), 'only.txt', TEXT);
    expect((await info(full.slug)).state).toBe('full');
    await expectError(await grantRes(full.slug), 409);
    await expectError(await t.request('/api/public/file-requests/no-such-request'), 404);
  });

  it('authorises uploads only with a grant of this request: missing, forged, expired or another request’s are refused', async () => {
    const request = await create({ password: 'open sesame' });
    const other = await create();
    expect((await info(request.slug)).has_password).toBe(true);
    await expectError(await grantRes(request.slug), 401);
    await expectError(await grantRes(request.slug, { password: 'wrong' }), 401);
    const grant = await grantOf(request.slug, { password: 'open sesame' });

    expect((await expectError(await init(request.slug, undefined, 'a.txt', 10), 401)).message).not.toBe('');
    await expectError(await init(request.slug, `${grant.slice(0, -2)}xx`, 'a.txt', 10), 401);
    await expectError(await init(request.slug, 'not-a-grant', 'a.txt', 10), 401);
    await expectError(await t.request(`/api/public/file-requests/${request.slug}/multipart/init`, { token: t.token, json: { filename: 'a.txt', size: 10, part_size: MIN_PART_BYTES } }), 401);
    await expectError(await init(other.slug, grant, 'a.txt', 10), 403);

    // Another sender cannot touch this sender's upload.
    const ref = await initOk(request.slug, grant, 'mine.txt', TEXT.length);
    const stranger = await grantOf(request.slug, { password: 'open sesame' });
    await expectError(await call(request.slug, 'sign', stranger, { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers: [1] }), 404);
    await expectError(await call(request.slug, 'abort', stranger, { file_id: ref.file_id, upload_id: ref.upload_id }), 404);

    t.clock.advance(13 * HOUR);
    await expectError(await init(request.slug, grant, 'a.txt', 10), 401);
  });

  it('ends the grants earned with a password once the password is changed, set or removed', async () => {
    const request = await create({ password: 'first' });
    const first = await grantOf(request.slug, { password: 'first' });
    const ref = await initOk(request.slug, first, 'a.txt', TEXT.length);
    expect((await patch(request.id, { password: 'second' })).status).toBe(200);
    for (const res of [await init(request.slug, first, 'b.txt', 10), await call(request.slug, 'sign', first, { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers: [1] })]) {
      expect((await expectError(res, 401)).message).toMatch(/password has changed/);
    }
    // The same password set again is a new setting: the grant of the one before still ends.
    const second = await grantOf(request.slug, { password: 'second' });
    expect((await patch(request.id, { password: 'second' })).status).toBe(200);
    await expectError(await init(request.slug, second, 'b.txt', 10), 401);
    const third = await grantOf(request.slug, { password: 'second' });
    expect((await patch(request.id, { password: null })).status).toBe(200);
    await expectError(await init(request.slug, third, 'b.txt', 10), 401);

    // Without a password, grants keep working through other edits, and end when one is set.
    const open = await grantOf(request.slug);
    expect((await patch(request.id, { title: 'Edited', max_files: 50 })).status).toBe(200);
    await initOk(request.slug, open, 'c.txt', 10);
    expect((await patch(request.id, { password: 'new' })).status).toBe(200);
    await expectError(await init(request.slug, open, 'd.txt', 10), 401);
  });

  it('takes no more bytes through part URLs signed before the request closed, expired or was deleted', async () => {
    /** An upload begun and its first part's URL signed, the request still open. */
    const signedPart = async (slug: string) => {
      const grant = await grantOf(slug);
      const ref = await initOk(slug, grant, 'late.txt', TEXT.length);
      const signed = await expectOk(await call(slug, 'sign', grant, { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers: [1] }), multipartSignResponseSchema);
      const put = async () => fetch(await t.overHttp(signed.urls[0]?.url ?? ''), { method: 'PUT', body: new Uint8Array(TEXT) });
      return { grant, ref, put };
    };

    const closing = await create();
    const closed = await signedPart(closing.slug);
    expect((await patch(closing.id, { closed: true })).status).toBe(200);
    const late = await closed.put();
    // The server's own upload route (LOCAL, WebDAV) asks the request; S3 takes the part (its URL lives PRESIGN_TTL_SECONDS), but nothing of it
    // becomes a file: completing is refused.
    if (throughServer(kind)) expect(late.status).toBe(410);
    else expect(late.status).toBe(200);
    const parts = [{ partNumber: 1, etag: (late.headers.get('etag') ?? 'none').replace(/"/g, '') }];
    await expectError(await complete(closing.slug, closed.grant, closed.ref, parts), 410);
    // Opened again, the same URL works: the request takes files again.
    expect((await patch(closing.id, { closed: false })).status).toBe(200);
    expect((await closed.put()).status).toBe(200);

    const expiring = await create({ expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    const expired = await signedPart(expiring.slug);
    t.clock.advance(60_000);
    expect((await expired.put()).status).toBe(throughServer(kind) ? 410 : 200);

    const deleting = await create();
    const deleted = await signedPart(deleting.slug);
    expect((await t.request(`/api/file-requests/${deleting.id}`, { token: t.token, method: 'DELETE' })).status).toBe(200);
    // Its uploads were aborted with it: the part finds no upload.
    expect((await deleted.put()).status).toBe(404);
  });

  it('keeps a folder target inside a mount its creator may write, outside the share area', async () => {
    const refused = async (path: string, status: number, auth: Auth = admin()) =>
      expectError(await t.request('/api/file-requests', { ...auth, json: { title: 'x', target: { kind: 'folder', path } } }), status);
    await refused(`${root}/${'../'.repeat(root.split('/').length)}etc/`, 400);
    await refused(`${root}/../etc/`, 403);
    await refused('../inbox', 400);
    await refused('/', 400);
    await refused('/nowhere/inbox/', 403);
    if (kind === 'LOCAL') {
      // The LOCAL mount's root is its storage's: the share and expense areas lie right below it.
      await refused(`${root}/.clipstash-shares/`, 400);
      await refused(`${root}/.clipstash-expenses/x/`, 400);
    }
    await plant('a-file.txt', TEXT);
    await refused(`${root}/a-file.txt`, 400);

    const key = await t.createKey(t.token, { file_permission: true, mount_permission: true, basic_path: `${root}/mine` });
    await refused(`${root}/theirs/`, 403, { apiKey: key.key });
    await refused(`${root}/mine/../theirs/`, 403, { apiKey: key.key });
    const fileOnly = await t.createKey(t.token, { file_permission: true });
    await refused(`${root}/mine/`, 403, { apiKey: fileOnly.key });
    const own = await create({ target: { kind: 'folder', path: `${root}/mine/drop` } }, { apiKey: key.key });
    expect(own.target).toEqual({ kind: 'folder', path: `${root}/mine/drop/` });
    expect(own.created_by).toBe(`apikey:${key.id}`);

    // The key sees its own requests, not the admin's; another key not even its own.
    const mine = await expectOk(await t.request('/api/file-requests', { apiKey: key.key }), fileRequestListSchema);
    expect(mine.items.map((item) => item.id)).toEqual([own.id]);
    await expectError(await t.request(`/api/file-requests/${own.id}`, { apiKey: fileOnly.key }), 404);
    expect((await t.request(`/api/file-requests/${own.id}`, admin())).status).toBe(200);

    // Uploads land with the key's rights: once it loses the mount permission, the request takes nothing more.
    const grant = await grantOf(own.slug);
    await sendOk(own.slug, grant, 'in.txt', TEXT);
    expect(await fs.names(`${root}/mine/drop`, true)).toEqual(['in.txt']);
    expect((await t.request(`/api/admin/api-keys/${key.id}`, { token: t.token, method: 'PUT', json: { mount_permission: false } })).status).toBe(200);
    await expectError(await init(own.slug, grant, 'more.txt', 10), 410);
  });

  it('makes each file of a shares request a file share of its creator', async () => {
    const request = await create({ target: { kind: 'shares' }, show_uploads: true });
    const grant = await grantOf(request.slug, { sender_name: 'Bo' });
    const sent = await sendOk(request.slug, grant, 'shared.pdf', PDF);
    expect(sent).toMatchObject({ path: null, sender_name: 'Bo', share_slug: expect.any(String) });
    const share = await fileClient(t).row(sent.share_slug ?? '');
    expect(share).toMatchObject({ created_by: 'admin', status: 'committed', filename: 'shared.pdf' });
    expect(sha256(await bytesOf(await fileClient(t).download(sent.share_slug ?? '')))).toBe(sha256(PDF));
    // With show_uploads, another sender sees it too.
    const others = await expectOk(await t.request(`/api/public/file-requests/${request.slug}/uploads`, asSender(await grantOf(request.slug))), fileRequestUploadListSchema);
    expect(others.items.map((item) => item.filename)).toEqual(['shared.pdf']);
  });

  it('shows a sender only their own files unless the request shows uploads', async () => {
    const request = await create();
    const ada = await grantOf(request.slug);
    await sendOk(request.slug, ada, 'ada.txt', TEXT);
    const list = async (grant: string) =>
      (await expectOk(await t.request(`/api/public/file-requests/${request.slug}/uploads`, asSender(grant)), fileRequestUploadListSchema)).items.map((item) => item.filename);
    expect(await list(ada)).toEqual(['ada.txt']);
    expect(await list(await grantOf(request.slug))).toEqual([]);
  });

  it('sweeps an abandoned upload with its parts, giving its place back', async () => {
    const request = await create({ max_files: 1 });
    const grant = await grantOf(request.slug);
    await initOk(request.slug, grant, 'left.txt', TEXT.length);
    await expectError(await init(request.slug, grant, 'other.txt', 1), 409);
    t.clock.advance(PRESIGN_TTL_SECONDS * 1000 + 1);
    await sweepAsLeader(t.deps);
    expect(await t.db.selectFrom('file_request_uploads').select('id').where('request_id', '=', request.id).execute()).toEqual([]);
    if (s3) expect(await s3.pendingUploads()).toEqual([]);
    await initOk(request.slug, await grantOf(request.slug), 'other.txt', 1);
  });

  it('edits, closes and deletes a request; its files stay where they landed', async () => {
    const request = await create();
    const folder = request.target.kind === 'folder' ? request.target.path : '';
    await sendOk(request.slug, await grantOf(request.slug), 'kept.txt', TEXT);
    const edited = await expectOk(await patch(request.id, { title: 'Renamed', password: 'pw', max_files: 5 }), fileRequestSchema);
    expect(edited).toMatchObject({ title: 'Renamed', has_password: true, max_files: 5, files_received: 1 });
    await expectError(await patch(request.id, { max_files: 0 }), 400);
    expect((await t.request(`/api/file-requests/${request.id}`, { token: t.token, method: 'DELETE' })).status).toBe(200);
    await expectError(await t.request(`/api/public/file-requests/${request.slug}`), 404);
    expect(await fs.names(folder, true)).toEqual(['kept.txt']);
  });

  it('limits how often one client asks for grants (429)', async () => {
    const request = await create();
    for (let i = 0; i < FILE_REQUEST_GRANTS_PER_WINDOW; i++) expect((await grantRes(request.slug, {}, '198.51.100.9')).status).toBe(201);
    await expectError(await grantRes(request.slug, {}, '198.51.100.9'), 429);
    expect((await grantRes(request.slug, {}, '198.51.100.10')).status).toBe(201);
  });
});
