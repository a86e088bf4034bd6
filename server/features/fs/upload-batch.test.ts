import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FS_UPLOAD_GROUP_MAX_FILES, fsUploadBatchResultSchema } from '../../../contract/fs';
import { storageConfigSchema } from '../../../contract/storage';
import { SHARE_AREA } from '../../storage/keys';
import { bytesOf, fileClient, md5, type Auth, type Bytes } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

type Kind = 'LOCAL' | 'S3';
interface GroupFile {
  relativePath?: string;
  bytes: Bytes;
  mimetype?: string;
}

const MIB = 1024 * 1024;

/** The form the browser's batch pipeline sends: `path` first, then each file's `relativePath` right before it. */
function groupForm(folder: string | undefined, files: GroupFile[]): FormData {
  const form = new FormData();
  if (folder !== undefined) form.append('path', folder);
  for (const [index, file] of files.entries()) {
    if (file.relativePath !== undefined) form.append('relativePath', file.relativePath);
    if (file.mimetype !== undefined) form.append('mimetype', file.mimetype);
    form.append('file', new Blob([file.bytes]), `file-${index}`);
  }
  return form;
}

/** 1–4 KB of random bytes, as the benchmark's small files. */
const smallFile = () => randomBytes(1024 + Math.floor(Math.random() * 3072)) as Bytes;

/** Every file (not folder) below `dir`, relative to it. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe.each<Kind>(['LOCAL', 'S3'])('POST /fs/upload-batch on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let root: string;
  let mountId: string;
  /** LOCAL: the folder of the built-in storage on disk. */
  let localDir = '';

  const uploadBatch = (body: BodyInit, auth: Auth = { token: t.token }, area: 'admin' | 'user' = 'admin', headers: Record<string, string> = {}) =>
    t.request(`/api/${area}/fs/upload-batch`, { ...auth, method: 'POST', body, headers });
  const uploadBatchOk = async (folder: string, files: GroupFile[], status: 200 | 202 = 200) =>
    expectOk(await uploadBatch(groupForm(folder, files)), fsUploadBatchResultSchema, status);
  const cacheVersion = async () =>
    (await t.db.selectFrom('mounts').select('cache_version').where('id', '=', mountId).executeTakeFirstOrThrow()).cache_version;
  /** Leftovers of writes in progress: LOCAL staging files, S3 multipart uploads never completed nor aborted. */
  const inFlight = async () => (kind === 'LOCAL' ? filesBelow(join(localDir, '.staging')) : (s3?.pendingUploads() ?? []));

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    if (kind === 'LOCAL') {
      root = '/local';
      localDir = join(t.dataDir, 'storage', (await fileClient(t).builtinLocal(t.token)).id);
      mountId = (await fs.listOk('/local')).mountId ?? '';
    } else {
      s3 = await startS3rver();
      const config = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3.configRequest({ default_folder: 'mounted' }) }), storageConfigSchema, 201);
      const mount = await createMount(t, t.token, { name: 'Bucket', storage_type: 'S3', storage_config_id: config.id, mount_path: '/s3/bucket', cache_ttl: 60 });
      root = '/s3/bucket';
      mountId = mount.id;
    }
  });
  afterAll(async () => {
    await s3?.stop();
  });
  afterEach(async () => {
    await t.db.deleteFrom('system_settings').execute();
    expect(await inFlight()).toEqual([]);
  });

  it('stores 50 files at their nested relative paths byte-exact, and the cached listings show them', async () => {
    const files = Array.from({ length: 50 }, (_, index): GroupFile => {
      const depth = index % 4;
      const folders = ['photos', `y${index % 3}`, `m${index % 5}`].slice(0, depth);
      return { relativePath: [...folders, `file ${index} é.txt`].join('/'), bytes: smallFile() };
    });
    files[7] = { ...files[7], mimetype: 'application/x-custom' } as GroupFile;
    // Cached before: the group must drop these listings, not wait for their cache time.
    expect((await fs.mkdir(`${root}/group`)).status).toBe(201);
    expect(await fs.names(`${root}/group`)).toEqual([]);
    expect(await fs.names(root)).toContain('group');
    const version = await cacheVersion();

    const result = await uploadBatchOk(`${root}/group`, files);
    expect(result.failed).toEqual([]);
    expect(result.succeeded.map((item) => item.relativePath)).toEqual(files.map((file) => file.relativePath));
    for (const [index, item] of result.succeeded.entries()) {
      const file = files[index] as GroupFile;
      expect(item).toMatchObject({ path: `${root}/group/${file.relativePath}`, size: file.bytes.length, etag: md5(file.bytes) });
      expect(item.mimetype).toBe(index === 7 ? 'application/x-custom' : 'text/plain');
    }
    // One bump of the mount's listing version for the whole group, not one per file.
    expect(await cacheVersion()).toBe(version + 1);

    for (const file of files) {
      const res = await fs.download(`${root}/group/${file.relativePath}`);
      expect(res.status).toBe(200);
      expect(md5(await bytesOf(res))).toBe(md5(file.bytes));
    }
    const topFiles = files.filter((file) => !file.relativePath?.includes('/')).map((file) => file.relativePath);
    const numeric = (a = '', b = '') => a.localeCompare(b, undefined, { numeric: true });
    expect(await fs.names(`${root}/group`)).toEqual(['photos', ...topFiles.sort(numeric)]);
    const deepest = files.filter((file) => file.relativePath?.startsWith('photos/y1/m1/'));
    expect(deepest.length).toBeGreaterThan(0);
    expect((await fs.names(`${root}/group/photos/y1/m1`)).sort()).toEqual(deepest.map((file) => file.relativePath?.split('/').pop()).sort());
  });

  it('keeps a key inside its base path: its files outside fail alone, the others are stored', async () => {
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: `${root}/kb/mine` });
    await fs.uploadOk(`${root}/kb/other`, 'keep.txt', Buffer.from('keep'));
    const files: GroupFile[] = [
      { relativePath: 'mine/a.txt', bytes: smallFile() },
      { relativePath: 'other/b.txt', bytes: smallFile() },
      { relativePath: 'mine/deeper/c.txt', bytes: smallFile() },
      { relativePath: 'other/keep.txt', bytes: smallFile() },
      { relativePath: 'mine', bytes: smallFile() },
    ];
    const res = await uploadBatch(groupForm(`${root}/kb`, files), { apiKey: key.key }, 'user');
    const result = await expectOk(res, fsUploadBatchResultSchema, 202);
    expect(result.succeeded.map((item) => item.path)).toEqual([`${root}/kb/mine/a.txt`, `${root}/kb/mine/deeper/c.txt`]);
    expect(result.failed.map((item) => [item.path, item.error])).toEqual([
      [`${root}/kb/other/b.txt`, 'forbidden'],
      [`${root}/kb/other/keep.txt`, 'forbidden'],
      [`${root}/kb/mine`, 'forbidden'],
    ]);
    expect(result.failed[0]?.message).toBe(`You can only access ${root}/kb/mine and its subdirectories`);
    await expectError(await fs.get(`${root}/kb/other/b.txt`), 404);
    expect(await bytesOf(await fs.download(`${root}/kb/other/keep.txt`))).toEqual(Buffer.from('keep'));
    expect(await bytesOf(await fs.download(`${root}/kb/mine/a.txt`))).toEqual(Buffer.from(files[0]?.bytes ?? []));

    // From inside the base path, `..` does not climb out of it either.
    const climbing = await expectOk(
      await uploadBatch(groupForm(`${root}/kb/mine`, [{ relativePath: '../other/x.txt', bytes: smallFile() }]), { apiKey: key.key }, 'user'),
      fsUploadBatchResultSchema,
      202,
    );
    expect(climbing.failed).toMatchObject([{ relativePath: '../other/x.txt', error: 'validation' }]);
    await expectError(await fs.get(`${root}/kb/other/x.txt`), 404);
  });

  it('fails a file over the max upload size alone, leaving nothing of it', async () => {
    await fileClient(t).setMaxUploadMb(t.token, 0.05);
    const big = randomBytes(300 * 1024) as Bytes;
    const files: GroupFile[] = [
      { relativePath: 'a.txt', bytes: smallFile() },
      { relativePath: 'big.bin', bytes: big },
      { relativePath: 'c.txt', bytes: smallFile() },
    ];
    const result = await uploadBatchOk(`${root}/limits`, files, 202);
    expect(result.succeeded.map((item) => item.relativePath)).toEqual(['a.txt', 'c.txt']);
    expect(result.failed).toEqual([
      { path: `${root}/limits/big.bin`, relativePath: 'big.bin', error: 'too_large', message: expect.stringMatching(/300 KB/) as unknown },
    ]);
    await expectError(await fs.get(`${root}/limits/big.bin`), 404);
    expect(await fs.names(`${root}/limits`)).toEqual(['a.txt', 'c.txt']);
    expect(md5(await bytesOf(await fs.download(`${root}/limits/c.txt`)))).toBe(md5(files[2]?.bytes ?? new Uint8Array()));
  });

  it('fails invalid relative paths alone, and the files after them are still stored', async () => {
    const files: GroupFile[] = [
      { relativePath: 'ok-1.txt', bytes: smallFile() },
      { relativePath: '../x', bytes: smallFile() },
      { relativePath: 'ok-2.txt', bytes: smallFile() },
      { relativePath: '', bytes: smallFile() },
      { relativePath: 'sub/ok-3.txt', bytes: smallFile() },
      { relativePath: 'a//../../b', bytes: smallFile() },
      { relativePath: 'bad\u0000name.txt', bytes: smallFile() },
      { relativePath: `${'n'.repeat(300)}.txt`, bytes: smallFile() },
      // A name a folder already has.
      { relativePath: 'sub', bytes: smallFile() },
      ...(kind === 'LOCAL' ? [{ relativePath: '.staging/planted.txt', bytes: smallFile() }] : []),
      { relativePath: 'ok-4.txt', bytes: smallFile() },
    ];
    const result = await uploadBatchOk(`${root}/invalid`, files, 202);
    expect(result.succeeded.map((item) => item.relativePath)).toEqual(['ok-1.txt', 'ok-2.txt', 'sub/ok-3.txt', 'ok-4.txt']);
    const expected = [
      ['../x', 'validation'],
      ['', 'validation'],
      ['a//../../b', 'validation'],
      ['bad\u0000name.txt', 'validation'],
      [`${'n'.repeat(300)}.txt`, 'validation'],
      ['sub', 'fs_exists'],
      ...(kind === 'LOCAL' ? [['.staging/planted.txt', 'validation']] : []),
    ];
    expect(result.failed.map((item) => [item.relativePath, item.error])).toEqual(expected);
    expect(result.failed[0]).toMatchObject({ path: `${root}/invalid/../x`, message: 'Invalid value for relativePath: invalid_path' });
    expect(await fs.names(`${root}/invalid`)).toEqual(['sub', 'ok-1.txt', 'ok-2.txt', 'ok-4.txt']);
    for (const stray of [`${root}/x`, `${root}/b`, `${root}/invalid/b`]) await expectError(await fs.get(stray), 404);
    if (kind === 'LOCAL') {
      // The share area at the storage's root is no mount's; the other files of the group are still stored.
      const shares = await uploadBatchOk(root, [
        { relativePath: `${SHARE_AREA}/planted.txt`, bytes: smallFile() },
        { relativePath: 'invalid/ok-5.txt', bytes: smallFile() },
      ], 202);
      expect(shares.failed.map((item) => [item.path, item.error])).toEqual([[`${root}/${SHARE_AREA}/planted.txt`, 'validation']]);
      expect(shares.succeeded.map((item) => item.path)).toEqual([`${root}/invalid/ok-5.txt`]);
      expect(await filesBelow(join(localDir, SHARE_AREA))).not.toContain('planted.txt');
      expect(await filesBelow(localDir)).not.toContain(join('.staging', 'planted.txt'));
    }
  });

  it('refuses a form that is not one: file before `path`, file without its `relativePath`, no files, not multipart', async () => {
    // A file before `path`: 400, and nothing stored.
    const early = new FormData();
    early.append('relativePath', 'early.txt');
    early.append('file', new Blob(['early']), 'early.txt');
    early.append('path', `${root}/refused`);
    const first = await expectError(await uploadBatch(early), 400);
    expect(first.data).toMatchObject({ error: 'validation', field: 'path', issue: 'must_come_first' });
    await expectError(await fs.get(`${root}/refused/early.txt`), 404);
    await expectError(await fs.get(`${root}/early.txt`), 404);

    const noPath = new FormData();
    noPath.append('relativePath', 'early.txt');
    noPath.append('file', new Blob(['early']), 'early.txt');
    expect((await expectError(await uploadBatch(noPath), 400)).data).toMatchObject({ field: 'path', issue: 'must_come_first' });

    // A file without its own relativePath (the one before it was used up by the first file).
    const missing = groupForm(`${root}/refused`, [{ relativePath: 'one.txt', bytes: Buffer.from('one') }, { bytes: Buffer.from('two') }]);
    expect((await expectError(await uploadBatch(missing), 400)).data).toMatchObject({ field: 'relativePath', issue: 'required' });
    await expectError(await fs.get(`${root}/refused/two`), 404);

    expect((await expectError(await uploadBatch(groupForm(`${root}/refused`, [])), 400)).data).toMatchObject({ field: 'file', issue: 'required' });
    expect((await expectError(await uploadBatch(groupForm(undefined, [])), 400)).data).toMatchObject({ field: 'path', issue: 'required' });
    const json = await t.request('/api/admin/fs/upload-batch', { token: t.token, json: { path: root } });
    expect((await expectError(json, 400)).data).toMatchObject({ field: 'file', issue: 'not_multipart' });
    const invalidPath = groupForm('/local/../..', [{ relativePath: 'x.txt', bytes: Buffer.from('x') }]);
    expect((await expectError(await uploadBatch(invalidPath), 400)).data).toMatchObject({ field: 'path', issue: 'invalid_path' });
  });

  it(`stores ${FS_UPLOAD_GROUP_MAX_FILES} files of a larger group and answers the extra ones as too_many_files`, async () => {
    const files = Array.from({ length: FS_UPLOAD_GROUP_MAX_FILES + 2 }, (_, index): GroupFile => ({ relativePath: `many/f${index}.txt`, bytes: Buffer.from(`file ${index}`) }));
    const result = await uploadBatchOk(`${root}/crowd`, files, 202);
    expect(result.succeeded).toHaveLength(FS_UPLOAD_GROUP_MAX_FILES);
    expect(result.failed).toEqual(
      [FS_UPLOAD_GROUP_MAX_FILES, FS_UPLOAD_GROUP_MAX_FILES + 1].map((index) => ({
        path: `${root}/crowd/many/f${index}.txt`,
        relativePath: `many/f${index}.txt`,
        error: 'too_many_files',
        message: `One request takes at most ${FS_UPLOAD_GROUP_MAX_FILES} files: send this one in another request`,
      })),
    );
    const names = await fs.names(`${root}/crowd/many`);
    expect(names).toHaveLength(FS_UPLOAD_GROUP_MAX_FILES);
    expect(names).not.toContain(`f${FS_UPLOAD_GROUP_MAX_FILES}.txt`);
    expect(await bytesOf(await fs.download(`${root}/crowd/many/f99.txt`))).toEqual(Buffer.from('file 99'));
  });

  it('answers per-file messages in the caller\'s language', async () => {
    const res = await uploadBatch(groupForm(`${root}/zh`, [{ relativePath: '../x', bytes: Buffer.from('x') }]), { token: t.token }, 'admin', { 'accept-language': 'zh-CN' });
    const body = (await res.clone().json()) as { message: string };
    const result = await expectOk(res, fsUploadBatchResultSchema, 202);
    expect(body.message).toBe('已上传 0 个文件，失败 1 个');
    expect(result.failed[0]?.message).toBe('relativePath 的值无效：invalid_path');
  });

  it('keeps the files read whole when the body breaks off, and leaves nothing of the file cut off', async () => {
    await fs.names(root); // cached: the files stored before the break must show in it
    const boundary = '----clipstash-cut-off';
    const enc = new TextEncoder();
    const field = (name: string, value: string) => enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const fileHead = (name: string) =>
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const first = smallFile();
    const second = smallFile();
    // Past two S3 parts (8 MiB each), so that the cut comes while a multipart upload is open on S3.
    const sentOfBig = 20 * MIB;
    const head: Uint8Array[] = [
      field('path', `${root}/cut`),
      field('relativePath', 'first.txt'),
      fileHead('first.txt'),
      first,
      enc.encode('\r\n'),
      field('relativePath', 'sub/second.txt'),
      fileHead('second.txt'),
      second,
      enc.encode('\r\n'),
      field('relativePath', 'big.bin'),
      fileHead('big.bin'),
    ];
    let sent = 0;
    let sawInFlight = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = head.shift();
        if (next) {
          controller.enqueue(next);
          return;
        }
        if (sent < sentOfBig) {
          controller.enqueue(randomBytes(MIB));
          sent += MIB;
          return;
        }
        // The big file is being written when the body breaks off.
        await vi.waitFor(async () => expect(await inFlight()).not.toEqual([]), { timeout: 15_000, interval: 20 });
        sawInFlight = true;
        controller.error(new Error('connection reset'));
      },
    });
    const res = await uploadBatch(body, { token: t.token }, 'admin', { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect((await expectError(res, 400)).data).toMatchObject({ field: 'body', issue: 'malformed_multipart' });
    expect(sawInFlight).toBe(true);

    expect(md5(await bytesOf(await fs.download(`${root}/cut/first.txt`)))).toBe(md5(first));
    expect(md5(await bytesOf(await fs.download(`${root}/cut/sub/second.txt`)))).toBe(md5(second));
    await expectError(await fs.get(`${root}/cut/big.bin`), 404);
    expect(await fs.names(root)).toContain('cut');
    expect(await fs.names(`${root}/cut`)).toEqual(['sub', 'first.txt']);
    expect(await inFlight()).toEqual([]);
  });
});
