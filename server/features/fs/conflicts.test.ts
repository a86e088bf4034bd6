import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FS_CONFLICT_POLICIES,
  fsExistsSchema,
  fsMultipartInitSchema,
  fsPartSchema,
  fsPresignSchema,
  fsPresignSkippedSchema,
  fsUploadBatchResultSchema,
  fsUploadResultSchema,
  type FsConflictPolicy,
} from '../../../contract/fs';
import { bytesOf, fileClient, sha256, type Bytes } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

type Kind = 'LOCAL' | 'S3';
const text = (value: string) => Buffer.from(value) as Bytes;
/** What each policy does to an existing file: its outcome, the final name, and the content left at the old name. */
const EXPECTED: Record<FsConflictPolicy, { outcome?: string; name?: string; old: string }> = {
  skip: { outcome: 'skipped', name: 'a.txt', old: 'old' },
  replace: { outcome: 'replaced', name: 'a.txt', old: 'new' },
  rename: { outcome: 'renamed', name: 'a (1).txt', old: 'old' },
  fail: { old: 'old' },
};

describe.each<Kind>(['LOCAL', 'S3'])('onConflict on the writes into a %s mount', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let root: string;

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    ({ root, s3 } = await mountOfKind(t, t.token, kind));
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const upload = (folder: string, name: string, bytes: Bytes, onConflict?: FsConflictPolicy) => {
    const body = new FormData();
    body.append('path', folder);
    if (onConflict) body.append('onConflict', onConflict);
    body.append('file', new Blob([bytes]), name);
    return t.request('/api/admin/fs/upload', { token: t.token, method: 'POST', body });
  };
  const content = async (path: string) => (await bytesOf(await fs.download(path))).toString();
  /** A folder holding `a.txt` = "old" (and a folder `dir`), fresh for each case. */
  const seeded = async (name: string) => {
    const folder = `${root}/${kind}-${name}`;
    await fs.uploadOk(folder, 'a.txt', text('old'));
    expect((await fs.mkdir(`${folder}/dir`)).status).toBe(201);
    return folder;
  };

  it.each(FS_CONFLICT_POLICIES)('upload with %s', async (policy) => {
    const folder = await seeded(`upload-${policy}`);
    const expected = EXPECTED[policy];
    const res = await upload(folder, 'a.txt', text('new'), policy);
    if (policy === 'fail') {
      expect((await expectError(res, 409)).data).toMatchObject({ field: 'path', issue: 'exists' });
    } else {
      const done = await expectOk(res, fsUploadResultSchema, 201);
      expect(done).toMatchObject({ outcome: expected.outcome, path: `${folder}/${expected.name}` });
    }
    expect(await content(`${folder}/a.txt`)).toBe(expected.old);
    if (policy === 'rename') expect(await content(`${folder}/a (1).txt`)).toBe('new');
    // A folder in the way is never replaced.
    const onFolder = await upload(folder, 'dir', text('x'), policy);
    if (policy === 'replace' || policy === 'fail') await expectError(onFolder, 409);
    else expect((await expectOk(onFolder, fsUploadResultSchema, 201)).outcome).toBe(policy === 'skip' ? 'skipped' : 'renamed');
    expect((await fs.getOk(`${folder}/dir`)).type).toBe('directory');
  });

  it('upload replaces by default, and a fresh name is created', async () => {
    const folder = await seeded('upload-default');
    expect((await expectOk(await upload(folder, 'a.txt', text('new')), fsUploadResultSchema, 201)).outcome).toBe('replaced');
    expect((await expectOk(await upload(folder, 'b.txt', text('b'), 'fail'), fsUploadResultSchema, 201)).outcome).toBe('created');
    expect(await content(`${folder}/a.txt`)).toBe('new');
    await expectError(await upload(folder, 'c.txt', text('c'), 'sometimes' as FsConflictPolicy), 400);
  });

  it('upload-batch applies each onConflict to the files after it', async () => {
    const folder = await seeded('batch');
    const body = new FormData();
    body.append('path', folder);
    const file = (relativePath: string, value: string) => {
      body.append('relativePath', relativePath);
      body.append('file', new Blob([text(value)]), relativePath);
    };
    file('a.txt', 'replaced by default');
    body.append('onConflict', 'skip');
    file('a.txt', 'skipped');
    body.append('onConflict', 'rename');
    file('a.txt', 'renamed once');
    file('a.txt', 'renamed twice');
    body.append('onConflict', 'fail');
    file('a.txt', 'failed');
    file('dir', 'not over a folder');
    const result = await expectOk(await t.request('/api/admin/fs/upload-batch', { token: t.token, method: 'POST', body }), fsUploadBatchResultSchema, 202);
    expect(result.succeeded.map(({ outcome, path }) => [outcome, path])).toEqual([
      ['replaced', `${folder}/a.txt`],
      ['skipped', `${folder}/a.txt`],
      ['renamed', `${folder}/a (1).txt`],
      ['renamed', `${folder}/a (2).txt`],
    ]);
    expect(result.failed.map(({ path, error }) => [path, error])).toEqual([
      [`${folder}/a.txt`, 'fs_exists'],
      [`${folder}/dir`, 'fs_exists'],
    ]);
    expect(await content(`${folder}/a.txt`)).toBe('replaced by default');
    expect(await content(`${folder}/a (2).txt`)).toBe('renamed twice');
  });

  it.each(FS_CONFLICT_POLICIES)('multipart init and complete with %s', async (policy) => {
    const folder = await seeded(`multipart-${policy}`);
    const expected = EXPECTED[policy];
    const res = await fs.post('multipart/init', { path: folder, filename: 'a.txt', fileSize: 3, onConflict: policy });
    if (policy === 'fail') {
      await expectError(res, 409);
      return;
    }
    const init = await expectOk(res, fsMultipartInitSchema, 201);
    expect(init).toMatchObject({ outcome: expected.outcome, path: `${folder}/${expected.name}` });
    if (init.outcome === 'skipped') {
      expect(init).not.toHaveProperty('uploadId');
      return;
    }
    const part = await expectOk(await fs.part({ path: init.path, uploadId: init.uploadId, key: init.key, partNumber: 1 }, text('new')), fsPartSchema);
    const done = await expectOk(
      await fs.post('multipart/complete', { path: init.path, uploadId: init.uploadId, key: init.key, parts: [{ partNumber: 1, etag: part.etag }] }),
      fsUploadResultSchema,
      201,
    );
    expect(done).toMatchObject({ outcome: expected.outcome, path: init.path });
    expect(await content(`${folder}/a.txt`)).toBe(expected.old);
  });

  it('a renamed multipart upload holds its name until it completes or aborts', async () => {
    const folder = await seeded('held');
    const start = async () => expectOk(await fs.post('multipart/init', { path: folder, filename: 'a.txt', fileSize: 3, onConflict: 'rename' }), fsMultipartInitSchema.options[0], 201);
    const first = await start();
    const second = await start();
    expect([first.path, second.path]).toEqual([`${folder}/a (1).txt`, `${folder}/a (2).txt`]);
    // A held name is taken for `fail` and `skip` too, though nothing is stored there yet.
    await expectError(await fs.post('multipart/init', { path: folder, filename: 'a (1).txt', fileSize: 3, onConflict: 'fail' }), 409);
    expect((await fs.post('multipart/abort', { path: first.path, uploadId: first.uploadId, key: first.key })).status).toBe(200);
    expect((await start()).path).toBe(`${folder}/a (1).txt`);
  });

  it.each(FS_CONFLICT_POLICIES)('presign and commit with %s', async (policy) => {
    const folder = await seeded(`presign-${policy}`);
    const expected = EXPECTED[policy];
    const res = await fs.post('presign', { path: folder, fileName: 'a.txt', contentType: 'text/plain', fileSize: 3, onConflict: policy });
    if (policy === 'fail') {
      await expectError(res, 409);
      return;
    }
    if (policy === 'skip') {
      expect(await expectOk(res, fsPresignSkippedSchema)).toMatchObject({ outcome: 'skipped', targetPath: `${folder}/a.txt` });
      return;
    }
    const presign = await expectOk(res, fsPresignSchema);
    expect(presign).toMatchObject({ outcome: expected.outcome, targetPath: `${folder}/${expected.name}` });
    expect((await fileClient(t).putTo(presign.uploadUrl, text('new'), presign.contentType)).status).toBe(200);
    const done = await expectOk(
      await fs.post('presign/commit', { targetPath: presign.targetPath, key: presign.key, contentType: presign.contentType, fileSize: 3 }),
      fsUploadResultSchema,
      201,
    );
    expect(done.outcome).toBe(expected.outcome);
    expect(await content(`${folder}/a.txt`)).toBe(expected.old);
  });

  it('16 concurrent uploads of one name with rename give 16 distinct files', async () => {
    const folder = `${root}/${kind}-race`;
    await fs.uploadOk(folder, 'same.txt', text('first'));
    const results = await Promise.all(
      Array.from({ length: 16 }, async (_, n) => expectOk(await upload(folder, 'same.txt', text(`sender ${n}`), 'rename'), fsUploadResultSchema, 201)),
    );
    const paths = new Set(results.map((result) => result.path));
    expect(paths.size).toBe(16);
    expect(results.every((result) => result.outcome === 'renamed')).toBe(true);
    const contents = await Promise.all(results.map((result) => content(result.path)));
    expect(contents.sort()).toEqual(Array.from({ length: 16 }, (_, n) => `sender ${n}`).sort());
    expect(await content(`${folder}/same.txt`)).toBe('first');
    expect((await fs.names(folder, true)).length).toBe(17);
  });

  it('exists answers what is at each path, hashes where cheap, and nothing outside the caller', async () => {
    const folder = await seeded('exists');
    const exists = (json: unknown, auth: { token?: string; apiKey?: string } = { token: t.token }, area = 'admin') =>
      t.request(`/api/${area}/fs/exists`, { ...auth, json });
    const answer = await expectOk(await exists({ paths: [`${folder}/a.txt`, `${folder}/dir`, `${folder}/none`, '/../etc/passwd'], hashes: true }), fsExistsSchema);
    expect(answer.existing).toEqual([
      { path: `${folder}/a.txt`, kind: 'file', size: 3, etag: expect.any(String), ...(kind === 'LOCAL' && { sha256: sha256(text('old')) }) },
      { path: `${folder}/dir`, kind: 'folder', size: 0, etag: null },
    ]);
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: `${folder}/dir` });
    const fromKey = await expectOk(await exists({ paths: [`${folder}/a.txt`, `${folder}/dir`] }, { apiKey: key.key }, 'user'), fsExistsSchema);
    expect(fromKey.existing.map((entry) => entry.path)).toEqual([`${folder}/dir`]);
    await expectError(await exists({ paths: [] }), 400);
  });
});
