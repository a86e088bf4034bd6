import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fsBatchCopySchema, fsBatchMoveSchema, fsBatchResultSchema, type FsBatchMove, type FsConflictPolicy } from '../../../contract/fs';
import { bytesOf, fileClient, sha256, type Bytes } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

type Kind = 'LOCAL' | 'S3';
const text = (value: string) => Buffer.from(value) as Bytes;

describe.each<Kind>(['LOCAL', 'S3'])('batch-move from a %s mount', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  /** The mount moved from, and one on the other kind of storage. */
  let root: string;
  let other: string;

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    const bucket = await mountOfKind(t, t.token, 'S3');
    s3 = bucket.s3;
    [root, other] = kind === 'LOCAL' ? ['/local', bucket.root] : [bucket.root, '/local'];
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const move = async (items: { sourcePath: string; targetPath: string }[], onConflict?: FsConflictPolicy, status: 200 | 202 = 200) =>
    expectOk(await fs.post('batch-move', { items, ...(onConflict && { onConflict }) }), fsBatchMoveSchema, status);
  const content = async (path: string) => (await bytesOf(await fs.download(path))).toString();
  const absent = async (path: string) => (await fs.get(path)).status === 404;
  /** A folder `tree` with three files, one of them in a sub-folder. */
  const seedTree = async (folder: string) => {
    await fs.uploadOk(folder, 'a.txt', text('a'));
    await fs.uploadOk(folder, 'b.txt', text('bb'));
    await fs.uploadOk(`${folder}/sub`, 'c.txt', text('ccc'));
  };
  /** Does what the browser does with a move's client copies (GET the source, PUT the target), `bytesFor` aside. */
  async function runCopies(plan: FsBatchMove, bytesFor: (sourcePath: string, bytes: Bytes) => Bytes | undefined = (_, bytes) => bytes) {
    const files = client.files;
    for (const copy of plan.clientCopies) {
      expect(copy.upload.kind).toBe('put');
      const source = (await bytesOf(await fileClient(t).getUrl(copy.downloadUrl))) as Bytes;
      const bytes = bytesFor(copy.sourcePath, source);
      if (bytes && copy.upload.kind === 'put') expect((await fileClient(t).putTo(copy.upload.url, bytes, copy.contentType)).status).toBe(200);
      files.push({ sourcePath: copy.sourcePath, targetPath: copy.targetPath, s3Path: copy.s3Path, contentType: copy.contentType, fileSize: copy.fileSize });
    }
    return { targetMountId: plan.clientCopies[0]?.targetMountId ?? '', files };
  }
  const client = { files: [] as { sourcePath: string; targetPath: string; s3Path: string; contentType: string; fileSize: number }[] };

  it('moves files and whole folders inside one storage, under each conflict rule', async () => {
    const folder = `${root}/inside`;
    await seedTree(`${folder}/tree`);
    await fs.uploadOk(`${folder}/dest`, 'a.txt', text('already'));
    const moved = await move([
      { sourcePath: `${folder}/tree`, targetPath: `${folder}/dest/` },
      { sourcePath: `${folder}/tree/../tree-gone`, targetPath: `${folder}/dest/` },
    ], undefined, 202);
    expect(moved.moved).toEqual([`${folder}/dest/tree`]);
    expect(moved.outcomes).toEqual([{ sourcePath: `${folder}/tree`, targetPath: `${folder}/dest/tree`, outcome: 'created' }]);
    expect(moved.requiresClientSideCopy).toBe(false);
    expect(await content(`${folder}/dest/tree/sub/c.txt`)).toBe('ccc');
    expect(await absent(`${folder}/tree`)).toBe(true);

    await fs.uploadOk(folder, 'a.txt', text('new'));
    const item = [{ sourcePath: `${folder}/a.txt`, targetPath: `${folder}/dest/` }];
    const failed = await move(item, undefined, 202);
    expect(failed.failed).toMatchObject([{ path: `${folder}/a.txt`, error: 'fs_exists' }]);
    expect((await move(item, 'skip')).outcomes).toEqual([{ ...item[0], targetPath: `${folder}/dest/a.txt`, outcome: 'skipped' }]);
    expect((await move(item, 'rename')).outcomes).toEqual([{ ...item[0], targetPath: `${folder}/dest/a (1).txt`, outcome: 'renamed' }]);
    await fs.uploadOk(folder, 'a.txt', text('newer'));
    expect((await move(item, 'replace')).outcomes).toEqual([{ ...item[0], targetPath: `${folder}/dest/a.txt`, outcome: 'replaced' }]);
    expect([await content(`${folder}/dest/a.txt`), await content(`${folder}/dest/a (1).txt`)]).toEqual(['newer', 'new']);
    expect(await absent(`${folder}/a.txt`)).toBe(true);
  });

  it('moves a folder to the other storage: each source deleted once its copy is verified, then the folder pruned', async () => {
    client.files = [];
    await seedTree(`${root}/across/tree`);
    const plan = await move([{ sourcePath: `${root}/across/tree`, targetPath: `${other}/across/` }]);
    expect(plan.requiresClientSideCopy).toBe(true);
    expect(plan.clientCopies.map((copy) => [copy.targetPath, copy.outcome]).sort()).toEqual([
      [`${other}/across/tree/a.txt`, 'created'],
      [`${other}/across/tree/b.txt`, 'created'],
      [`${other}/across/tree/sub/c.txt`, 'created'],
    ]);
    // Nothing is deleted before the commit.
    expect(await content(`${root}/across/tree/a.txt`)).toBe('a');
    const commit = await runCopies(plan);
    const done = await expectOk(await fs.post('batch-move-commit', { ...commit, pruneFolders: [`${root}/across/tree`] }), fsBatchResultSchema);
    expect(done.succeeded.sort()).toEqual([`${other}/across/tree/a.txt`, `${other}/across/tree/b.txt`, `${other}/across/tree/sub/c.txt`]);
    expect(await content(`${other}/across/tree/sub/c.txt`)).toBe('ccc');
    expect(await absent(`${root}/across/tree`)).toBe(true);
    expect(await fs.names(`${root}/across`, true)).toEqual([]);
  });

  it('keeps a source whose copy is missing or of another size, and the folder that holds it', async () => {
    client.files = [];
    await seedTree(`${root}/broken/tree`);
    const plan = await move([{ sourcePath: `${root}/broken/tree`, targetPath: `${other}/broken/` }]);
    // b.txt's write never happens; c.txt arrives cut short, a.txt whole.
    const commit = await runCopies(plan, (sourcePath, bytes) =>
      sourcePath.endsWith('b.txt') ? undefined : sourcePath.endsWith('c.txt') ? (bytes.subarray(0, 1) as Bytes) : bytes,
    );
    const cShort = commit.files.find((file) => file.sourcePath.endsWith('c.txt'));
    if (cShort) cShort.fileSize = 1;
    const done = await expectOk(await fs.post('batch-move-commit', { ...commit, pruneFolders: [`${root}/broken/tree`] }), fsBatchResultSchema, 202);
    expect(done.succeeded).toEqual([`${other}/broken/tree/a.txt`]);
    expect(done.failed.map((failure) => failure.path).sort()).toEqual([`${other}/broken/tree/b.txt`, `${root}/broken/tree/sub/c.txt`].sort());
    expect(await absent(`${root}/broken/tree/a.txt`)).toBe(true);
    expect(sha256(await bytesOf(await fs.download(`${root}/broken/tree/b.txt`)))).toBe(sha256(text('bb')));
    expect(await content(`${root}/broken/tree/sub/c.txt`)).toBe('ccc');
    expect((await fs.getOk(`${root}/broken/tree`)).type).toBe('directory');
  });

  it('batch-copy honours onConflict and still reads skipExisting', async () => {
    const folder = `${root}/copy`;
    await fs.uploadOk(folder, 'a.txt', text('a'));
    await fs.uploadOk(`${folder}/dest`, 'a.txt', text('old'));
    const items = [{ sourcePath: `${folder}/a.txt`, targetPath: `${folder}/dest/` }];
    const copy = async (extra: Record<string, unknown>, status: 200 | 202 = 200) =>
      expectOk(await fs.post('batch-copy', { items, ...extra }), fsBatchCopySchema, status);
    expect((await copy({})).outcomes).toMatchObject([{ outcome: 'skipped' }]);
    expect((await copy({ onConflict: 'rename' })).outcomes).toMatchObject([{ targetPath: `${folder}/dest/a (1).txt`, outcome: 'renamed' }]);
    expect((await copy({ onConflict: 'fail' }, 202)).failed).toMatchObject([{ error: 'fs_exists' }]);
    expect((await copy({ skipExisting: false, onConflict: 'skip' })).skipped).toEqual([`${folder}/dest/a.txt`]);
    expect((await copy({ skipExisting: false })).outcomes).toMatchObject([{ outcome: 'replaced' }]);
    expect(await content(`${folder}/dest/a.txt`)).toBe('a');
    // Between storages the planned outcome comes with each client copy.
    const across = await copy({ items: [{ sourcePath: `${folder}/a.txt`, targetPath: `${other}/copy/` }] });
    expect(across.clientCopies.map((entry) => entry.outcome)).toEqual(['created']);
  });
});
