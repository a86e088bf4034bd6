import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cacheClearSchema, fsBatchResultSchema, fsLinkSchema, fsMultipartInitSchema, fsPartSchema, fsPresignSchema, fsUploadResultSchema } from '../../../contract/fs';
import { mountSchema } from '../../../contract/mounts';
import { storageConfigSchema } from '../../../contract/storage';
import { bytesOf, fileClient, md5, partEtagOn, patternBytes } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const MIB = 1024 * 1024;
type Kind = 'LOCAL' | 'S3';

describe.each<Kind>(['LOCAL', 'S3'])('the mount file system on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  /** The mount under test, and a second mount on another storage config. */
  let root: string;
  let mountId: string;
  let otherRoot: string;
  /** Writes an object straight into the storage, behind the app's back. */
  let plant: (inner: string, bytes: Buffer) => Promise<void>;

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    if (kind === 'LOCAL') {
      root = '/local';
      const local = await fileClient(t).builtinLocal(t.token);
      mountId = (await fs.listOk('/local')).mountId ?? '';
      plant = async (inner, bytes) => {
        const file = join(t.dataDir, 'storage', local.id, ...inner.split('/'));
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, bytes);
      };
    } else {
      s3 = await startS3rver();
      const config = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3.configRequest({ default_folder: 'mounted' }) }), storageConfigSchema, 201);
      const mount = await createMount(t, t.token, { name: 'Bucket', storage_type: 'S3', storage_config_id: config.id, mount_path: '/s3/bucket', cache_ttl: 60 });
      root = '/s3/bucket';
      mountId = mount.id;
      const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const bucket = s3.bucket;
      plant = async (inner, bytes) => {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: `mounted/${inner}`, Body: bytes }));
      };
    }
    const second = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'second disk' } }), storageConfigSchema, 201);
    await createMount(t, t.token, { name: 'Second', storage_config_id: second.id, mount_path: '/second', sort_order: 5 });
    otherRoot = '/second';
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('lists the mounts at / and above mount paths (virtual), folders first, folder paths ending in /', async () => {
    const top = await fs.listOk('/');
    expect(top).toMatchObject({ path: '/', type: 'directory', isVirtual: true, mountId: null });
    expect(top.items.map((item) => item.path)).toEqual(kind === 'LOCAL' ? ['/local/', '/second/'] : ['/s3/', '/local/', '/second/']);
    expect(top.items.every((item) => item.isDirectory && item.isVirtual)).toBe(true); // in sort order, then by name
    if (kind === 'S3') expect(await fs.names('/s3')).toEqual(['bucket']);

    expect((await fs.mkdir(`${root}/docs`)).status).toBe(201);
    expect((await fs.getOk(`${root}/docs`)).type).toBe('directory');
    await fs.uploadOk(root, 'b.txt', Buffer.from('bee'));
    await fs.uploadOk(root, 'A.txt', Buffer.from('a'));
    await fs.uploadOk(root, 'file10.txt', Buffer.from('ten'));
    await fs.uploadOk(root, 'file2.txt', Buffer.from('two'));
    const listing = await fs.listOk(root);
    expect(listing).toMatchObject({ path: `${root}/`, isVirtual: false, mountId });
    const names = listing.items.map((item) => item.name);
    expect(names.indexOf('docs')).toBeLessThan(names.indexOf('A.txt'));
    expect(names.filter((name) => name.endsWith('.txt'))).toEqual(['A.txt', 'b.txt', 'file2.txt', 'file10.txt']);
    const docs = listing.items.find((item) => item.name === 'docs');
    expect(docs).toMatchObject({ path: `${root}/docs/`, isDirectory: true, isVirtual: false });
    const file = listing.items.find((item) => item.name === 'b.txt');
    expect(file).toMatchObject({ path: `${root}/b.txt`, isDirectory: false, size: 3, mimetype: 'text/plain' });
    expect(file?.modified).toMatch(/^\d{4}-\d\d-\d\dT/);
    await expectError(await fs.list(`${root}/b.txt`), 400);
    await expectError(await fs.list(`${root}/no-such-folder`), 404);
    await expectError(await fs.list('/nowhere'), 404);
  });

  it('uploads with the file part first, downloads byte-exact with Range and an RFC 6266 name, previews sandboxed', async () => {
    const bytes = patternBytes(300_000, 3);
    const name = '报告 #1 100%.bin';
    const uploaded = await fs.uploadOk(`${root}/dl`, name, bytes);
    expect(uploaded).toMatchObject({ path: `${root}/dl/${name}`, size: bytes.length, etag: md5(bytes) });
    const whole = await fs.download(uploaded.path);
    expect(whole.status).toBe(200);
    expect(md5(await bytesOf(whole))).toBe(md5(bytes));
    expect(whole.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(name).replace(/'/g, '%27')}`);
    const part = await fs.download(uploaded.path, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));
    // Fields first works as well.
    expect((await fs.upload(`${root}/dl`, 'second.bin', bytes, false)).status).toBe(201);

    await fs.uploadOk(`${root}/dl`, 'page.html', Buffer.from('<script>alert(1)</script>'));
    const preview = await fs.preview(`${root}/dl/page.html`);
    expect(preview.headers.get('content-disposition')).toMatch(/^inline/);
    expect(preview.headers.get('content-security-policy')).toBe('sandbox');
    expect(preview.headers.get('content-type')).toMatch(/^text\/html/);
    await expectError(await fs.download(`${root}/dl`), 404);
  });

  it('renames files and whole folders inside a mount, refuses the impossible ones, removes a folder with everything in it', async () => {
    await fs.uploadOk(`${root}/tree/a/b`, 'deep.txt', Buffer.from('deep'));
    await fs.uploadOk(`${root}/tree`, 'top.txt', Buffer.from('top'));
    expect((await fs.mkdir(`${root}/tree/empty`)).status).toBe(201);
    expect((await fs.rename(`${root}/tree`, `${root}/moved`)).status).toBe(200);
    await expectError(await fs.list(`${root}/tree`), 404);
    expect(await fs.names(`${root}/moved`)).toEqual(['a', 'empty', 'top.txt']);
    expect(await bytesOf(await fs.download(`${root}/moved/a/b/deep.txt`))).toEqual(Buffer.from('deep'));
    expect((await fs.rename(`${root}/moved/top.txt`, `${root}/moved/a/renamed.txt`)).status).toBe(200);
    expect(await fs.names(`${root}/moved/a`)).toEqual(['b', 'renamed.txt']);

    await expectError(await fs.rename(`${root}/moved`, `${root}/moved/a/inside`), 400);
    await expectError(await fs.rename(`${root}/moved/a/renamed.txt`, `${root}/moved/a/b`), 409);
    await expectError(await fs.rename(`${root}/moved/a/renamed.txt`, `${otherRoot}/x.txt`), 400);
    await expectError(await fs.rename(`${root}/nothing`, `${root}/else`), 404);
    await expectError(await fs.rename(root, `${root}2`), 403);
    await expectError(await fs.mkdir(`${root}/moved`), 409);

    // The last file of a folder goes; the folder stays.
    expect((await fs.remove(`${root}/moved/a/b/deep.txt`)).status).toBe(200);
    expect(await fs.names(`${root}/moved/a/b`)).toEqual([]);
    expect((await fs.remove(`${root}/moved`)).status).toBe(200);
    await expectError(await fs.get(`${root}/moved/a/renamed.txt`), 404);
    expect(await fs.names(root)).not.toContain('moved');
    await expectError(await fs.remove(root), 403);
    await expectError(await fs.remove(`${root}/moved`), 404);

    await fs.uploadOk(`${root}/batch`, 'one.txt', Buffer.from('1'));
    await fs.uploadOk(`${root}/batch`, 'two.txt', Buffer.from('2'));
    const partly = await fs.batchRemoveOk([`${root}/batch/one.txt`, `${root}/batch/missing.txt`, `${root}/batch/two.txt`], 202);
    expect(partly.succeeded).toEqual([`${root}/batch/one.txt`, `${root}/batch/two.txt`]);
    expect(partly.failed).toEqual([{ path: `${root}/batch/missing.txt`, error: 'not_found', message: `No file or folder at ${root}/batch/missing.txt` }]);
  });

  it('saves text with update and hands out a file link that works without credentials until it expires', async () => {
    const saved = await expectOk(await fs.update(`${root}/notes/readme.md`, '# 你好\n'), fsUploadResultSchema);
    expect(saved).toMatchObject({ size: Buffer.byteLength('# 你好\n'), mimetype: 'text/markdown' });
    const link = await expectOk(await fs.fileLink(`${root}/notes/readme.md`, '&force_download=true'), fsLinkSchema);
    expect(new Date(link.expiresAt).getTime() - t.clock.now().getTime()).toBe(604_800_000);
    const fetched = await fetch(await t.overHttp(link.url));
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('# 你好\n');
    expect(fetched.headers.get('content-disposition')).toMatch(/^attachment/);
    await expectError(await fs.fileLink(`${root}/notes`), 400);
    // Two weeks: a LOCAL link may live that long, an S3 presigned URL at most one (a clear 400, not a storage error).
    const twoWeeks = await fs.fileLink(`${root}/notes/readme.md`, `&expires_in=${2 * 604_800}`);
    if (kind === 'S3') expect((await expectError(twoWeeks, 400)).message).toContain('expires_in');
    else expect(new Date((await expectOk(twoWeeks, fsLinkSchema)).expiresAt).getTime() - t.clock.now().getTime()).toBe(2 * 604_800_000);
    await expectError(await fs.update(`${root}/notes`, 'x'), 409);
  });

  it('uploads in 5 MiB parts through the server, byte-exact, and abort leaves nothing behind', async () => {
    const bytes = patternBytes(5 * MIB + 123_456, 11);
    const init = await expectOk(await fs.post('multipart/init', { path: `${root}/big`, filename: 'big.bin', contentType: '', fileSize: bytes.length }), fsMultipartInitSchema.options[0], 201);
    expect(init).toMatchObject({ path: `${root}/big/big.bin`, partSize: 5 * MIB, partCount: 2 });
    const parts = [];
    for (let n = 1; n <= 2; n += 1) {
      const slice = bytes.subarray((n - 1) * 5 * MIB, n * 5 * MIB);
      const res = await fs.part({ path: init.path, uploadId: init.uploadId, partNumber: n, key: init.key, isLastPart: String(n === 2) }, slice);
      const part = await expectOk(res, fsPartSchema);
      expect(part.etag).toBe(partEtagOn(kind, slice));
      parts.push({ partNumber: n, etag: part.etag });
    }
    await expectError(await fs.post('multipart/complete', { path: init.path, uploadId: init.uploadId, key: 'other/key', parts }), 400);
    const done = await expectOk(await fs.post('multipart/complete', { path: init.path, uploadId: init.uploadId, key: init.key, parts }), fsUploadResultSchema, 201);
    expect(done.size).toBe(bytes.length);
    expect(md5(await bytesOf(await fs.download(init.path)))).toBe(md5(bytes));

    const dropped = await expectOk(await fs.post('multipart/init', { path: `${root}/big`, filename: 'dropped.bin', fileSize: 10 }), fsMultipartInitSchema.options[0], 201);
    await expectOk(await fs.part({ path: dropped.path, uploadId: dropped.uploadId, partNumber: 1, key: dropped.key }, Buffer.from('0123456789')), fsPartSchema);
    expect((await fs.post('multipart/abort', { path: dropped.path, uploadId: dropped.uploadId, key: dropped.key })).status).toBe(200);
    await expectError(await fs.post('multipart/complete', { path: dropped.path, uploadId: dropped.uploadId, key: dropped.key, parts: [{ partNumber: 1, etag: 'x' }] }), 404);
    if (s3) expect(await s3.pendingUploads()).toEqual([]);
    await expectError(await fs.get(dropped.path), 404);
  });

  it('presigns a direct PUT and commits it only when the object is there with its size', async () => {
    const bytes = patternBytes(4000, 2);
    const presign = await expectOk(await fs.post('presign', { path: `${root}/direct`, fileName: 'put.bin', contentType: 'application/octet-stream', fileSize: bytes.length }), fsPresignSchema);
    expect(presign).toMatchObject({ targetPath: `${root}/direct/put.bin`, mountId });
    const commit = { targetPath: presign.targetPath, key: presign.key, contentType: presign.contentType, fileSize: bytes.length };
    await expectError(await fs.post('presign/commit', commit), 404);
    expect((await fileClient(t).putTo(presign.uploadUrl, bytes, presign.contentType)).status).toBe(200);
    await expectError(await fs.post('presign/commit', { ...commit, fileSize: 3 }), 400);
    const done = await expectOk(await fs.post('presign/commit', { ...commit, etag: `"${md5(bytes)}"` }), fsUploadResultSchema, 201);
    expect(done).toMatchObject({ size: bytes.length, etag: md5(bytes) });
    expect(await fs.names(`${root}/direct`)).toEqual(['put.bin']);
  });

  it('copies inside one storage on the server (files and folders, skipping what exists) and hands cross-storage copies to the client', async () => {
    await fs.uploadOk(`${root}/src/sub`, 'in-folder.txt', Buffer.from('folder file'));
    await fs.uploadOk(`${root}/src`, 'single.txt', Buffer.from('single'));
    const same = await fs.batchCopyOk([
      { sourcePath: `${root}/src/single.txt`, targetPath: `${root}/dst/` },
      { sourcePath: `${root}/src/sub`, targetPath: `${root}/dst/sub-copy` },
    ]);
    expect(same).toMatchObject({ copied: [`${root}/dst/single.txt`, `${root}/dst/sub-copy/in-folder.txt`], skipped: [], failed: [], requiresClientSideCopy: false });
    expect(await bytesOf(await fs.download(`${root}/dst/sub-copy/in-folder.txt`))).toEqual(Buffer.from('folder file'));
    const again = await fs.batchCopyOk([{ sourcePath: `${root}/src/single.txt`, targetPath: `${root}/dst/` }]);
    expect(again.skipped).toEqual([`${root}/dst/single.txt`]);
    const failing = await fs.batchCopyOk([{ sourcePath: `${root}/src/none.txt`, targetPath: `${root}/dst/` }], true, 202);
    expect(failing.failed[0]).toMatchObject({ path: `${root}/src/none.txt`, error: 'not_found' });

    const big = patternBytes(5 * MIB + 10, 4);
    await fs.uploadOk(`${root}/src`, 'big.bin', big);
    const across = await fs.batchCopyOk([
      { sourcePath: `${root}/src/single.txt`, targetPath: `${otherRoot}/copied/` },
      { sourcePath: `${root}/src/big.bin`, targetPath: `${otherRoot}/copied/big.bin` },
    ]);
    expect(across.requiresClientSideCopy).toBe(true);
    expect(across.clientCopies.map((copy) => copy.targetPath)).toEqual([`${otherRoot}/copied/single.txt`, `${otherRoot}/copied/big.bin`]);
    const [small, large] = across.clientCopies;
    expect(small?.upload.kind).toBe('put');
    expect(large?.upload).toMatchObject({ kind: 'multipart', partSize: 5 * MIB, partCount: 2 });
    // The client's part: fetch the source, PUT it to the target, then commit.
    if (small?.upload.kind !== 'put') throw new Error('expected a PUT target');
    const source = await fetch(await t.overHttp(small.downloadUrl));
    expect((await fileClient(t).putTo(small.upload.url, Buffer.from(await source.arrayBuffer()), small.contentType)).status).toBe(200);
    const commit = (file: typeof small) => ({ targetPath: file.targetPath, s3Path: file.s3Path, contentType: file.contentType, fileSize: file.fileSize });
    const verified = await expectOk(
      await fs.post('batch-copy-commit', { targetMountId: small.targetMountId, files: [commit(small), commit(large as typeof small)] }),
      fsBatchResultSchema,
      202,
    );
    expect(verified.succeeded).toEqual([`${otherRoot}/copied/single.txt`]);
    expect(verified.failed.map((failure) => failure.path)).toEqual([`${otherRoot}/copied/big.bin`]);
    expect(await bytesOf(await fs.download(`${otherRoot}/copied/single.txt`))).toEqual(Buffer.from('single'));
  });

  it('plans a folder copy across storages within the quota taken together, skips what exists, and commits a batch checking every size', async () => {
    const names = ['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt'];
    for (const name of names) await fs.uploadOk(`${otherRoot}/many`, name, Buffer.from(`${name} bytes`)); // 10 bytes each
    const mount = await expectOk(await t.request(`/api/admin/mounts/${mountId}`, { token: t.token }), mountSchema);
    const setQuota = async (total: number | null) =>
      expectOk(await t.request(`/api/s3-configs/${mount.storage_config_id}`, { token: t.token, method: 'PUT', json: { total_storage_bytes: total } }), storageConfigSchema);
    await setQuota(25);
    const overQuota = await fs.batchCopyOk([{ sourcePath: `${otherRoot}/many`, targetPath: `${root}/quota-copy` }], true, 202);
    await setQuota(null);
    expect(overQuota.clientCopies).toHaveLength(2);
    expect(overQuota.failed.map((failure) => failure.error)).toEqual(['too_large', 'too_large', 'too_large']);

    await fs.uploadOk(`${root}/many-copy`, 'f0.txt', Buffer.from('was here'));
    const planned = await fs.batchCopyOk([{ sourcePath: `${otherRoot}/many`, targetPath: `${root}/many-copy` }]);
    expect(planned.skipped).toEqual([`${root}/many-copy/f0.txt`]);
    const copies = [...planned.clientCopies].sort((a, b) => a.targetPath.localeCompare(b.targetPath));
    expect(copies.map((copy) => copy.targetPath)).toEqual(names.slice(1).map((name) => `${root}/many-copy/${name}`));
    // Listed (and cached) before the copies land: the commit must drop that listing.
    expect(await fs.names(`${root}/many-copy`)).toEqual(['f0.txt']);
    const [f1, f2, f3, f4] = copies;
    for (const [copy, bytes] of [[f1, 'f1.txt bytes'], [f2, 'f2.txt bytes'], [f3, 'short']] as const) {
      if (copy?.upload.kind !== 'put') throw new Error('expected a PUT target');
      expect((await fileClient(t).putTo(copy.upload.url, Buffer.from(bytes), copy.contentType)).status).toBe(200);
    }
    const files = [f1, f2, f3, f4].map((copy) => ({ targetPath: copy!.targetPath, s3Path: copy!.s3Path, contentType: copy!.contentType, fileSize: copy!.fileSize }));
    const committed = await expectOk(await fs.post('batch-copy-commit', { targetMountId: mountId, files }), fsBatchResultSchema, 202);
    expect(committed.succeeded).toEqual([f1!.targetPath, f2!.targetPath]);
    expect(committed.failed.map((failure) => [failure.path, failure.error])).toEqual([
      [f3!.targetPath, 'validation'],
      [f4!.targetPath, 'not_found'],
    ]);
    expect(await fs.names(`${root}/many-copy`)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);
  });

  it('caches listings for the mount TTL: an object written behind its back shows after a refresh, a clear or the TTL', async () => {
    await fs.uploadOk(`${root}/cached`, 'seen.txt', Buffer.from('1'));
    expect(await fs.names(`${root}/cached`)).toEqual(['seen.txt']);
    await plant('cached/behind.txt', Buffer.from('2'));
    expect(await fs.names(`${root}/cached`)).toEqual(['seen.txt']);
    expect(await fs.names(`${root}/cached`, true)).toEqual(['behind.txt', 'seen.txt']);
    await plant('cached/later.txt', Buffer.from('3'));
    expect(await fs.names(`${root}/cached`)).toEqual(['behind.txt', 'seen.txt']);
    const cleared = await expectOk(await fs.clearCache(mountId), cacheClearSchema);
    expect(cleared.cleared).toBeGreaterThan(0);
    expect(await fs.names(`${root}/cached`)).toEqual(['behind.txt', 'later.txt', 'seen.txt']);
    await plant('cached/ttl.txt', Buffer.from('4'));
    expect(await fs.names(`${root}/cached`)).not.toContain('ttl.txt');
    t.clock.advance(301_000);
    expect(await fs.names(`${root}/cached`)).toContain('ttl.txt');
    // Writes through the API show at once.
    expect((await fs.remove(`${root}/cached/seen.txt`)).status).toBe(200);
    expect(await fs.names(`${root}/cached`)).not.toContain('seen.txt');
  });

  it('applies the storage quota to fs uploads: 413 naming size, remaining and total, nothing left behind', async () => {
    const configId = (await fs.listOk(otherRoot)).mountId ?? '';
    const mount = await expectOk(await t.request(`/api/admin/mounts/${configId}`, { token: t.token }), mountSchema);
    await expectOk(await t.request(`/api/s3-configs/${mount.storage_config_id}`, { token: t.token, method: 'PUT', json: { total_storage_bytes: 1000 } }), storageConfigSchema);
    const over = await expectError(await fs.upload(otherRoot, 'over.bin', patternBytes(1500)), 413);
    expect(over.data).toMatchObject({ fileSize: 1500, remaining: 1000, total: 1000 });
    await expectError(await fs.post('multipart/init', { path: otherRoot, filename: 'over.bin', fileSize: 1500 }), 413);
    await expectError(await fs.get(`${otherRoot}/over.bin`), 404);
    await expectOk(await t.request(`/api/s3-configs/${mount.storage_config_id}`, { token: t.token, method: 'PUT', json: { total_storage_bytes: null } }), storageConfigSchema);
  });
});
