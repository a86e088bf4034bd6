import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bytesOf, sha256, type Bytes } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import { jobsClient } from '../../../tests/fixtures/jobs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { createTestApp, expectError, type TestApp } from '../../../tests/fixtures/test-app';
import { jobsOf } from './service';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

type Kind = 'LOCAL' | 'S3';
const text = (value: string) => Buffer.from(value) as Bytes;

/**
 * Server jobs between a LOCAL mount and an s3rver bucket, each way: copies, moves, syncs, every state, the limits
 * checked before a job starts, and a key kept inside its base path.
 */
describe.each<Kind>(['LOCAL', 'S3'])('server jobs from a %s mount', (kind) => {
  let t: TestApp;
  let token: string;
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let jobs: ReturnType<typeof jobsClient>;
  let from: string;
  let to: string;
  let toConfigId: string;
  let n = 0;
  /** A fresh folder name per test. */
  const fresh = (name: string) => `${name}-${++n}`;

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    fs = fsClient(t, { token });
    jobs = jobsClient(t, { token });
    const bucket = await mountOfKind(t, token, 'S3', { mount: { cache_ttl: 0 } });
    s3 = bucket.s3;
    const local = await mountOfKind(t, token, 'LOCAL');
    [from, to] = kind === 'LOCAL' ? ['/local', bucket.root] : [bucket.root, '/local'];
    toConfigId = kind === 'LOCAL' ? bucket.configId : local.configId;
  });
  afterAll(async () => {
    await jobsOf(t.deps).stop();
    await t.close();
    await s3?.stop();
  });

  const content = async (path: string) => (await bytesOf(await fs.download(path))).toString();
  const absent = async (path: string) => (await fs.get(path)).status === 404;
  /** `count` files of random bytes in `folder` (and one in a sub-folder), by their relative paths. */
  const seed = async (folder: string, count: number, size = 1024) => {
    const files = Array.from({ length: count }, (_, i) => ({ relativePath: i === 0 ? `sub/f-${i}.bin` : `f-${i}.bin`, bytes: randomBytes(size + i) as Bytes }));
    for (let start = 0; start < files.length; start += 100) expect((await fs.uploadBatch(folder, files.slice(start, start + 100))).status).toBe(200);
    return files;
  };
  /** Every file's bytes, downloaded ten at a time. */
  const sameBytes = async (folder: string, files: { relativePath: string; bytes: Bytes }[]) => {
    for (let start = 0; start < files.length; start += 10) {
      await Promise.all(
        files.slice(start, start + 10).map(async (file) => {
          expect(sha256(await bytesOf(await fs.download(`${folder}/${file.relativePath}`))), file.relativePath).toBe(sha256(file.bytes));
        }),
      );
    }
  };

  it('copies a folder tree between storages, byte for byte, and counts it', async () => {
    const src = `${from}/${fresh('tree')}`;
    const files = await seed(src, 12);
    const dst = `${to}/${fresh('copy')}`;
    const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: src, targetPath: `${dst}/` }] });
    expect(job).toMatchObject({ type: 'copy', createdBy: { kind: 'admin', name: 'admin' }, onConflict: 'skip', items: { total: 12 } });
    expect(job.bytes.total).toBe(files.reduce((sum, file) => sum + file.bytes.length, 0));
    const ended = await jobs.ended(job.id);
    expect(ended).toMatchObject({ status: 'completed', items: { total: 12, done: 12, failed: 0 }, failures: [], currentItem: null });
    expect(ended.bytes.done).toBe(ended.bytes.total);
    expect(ended.finishedAt).not.toBeNull();
    const name = src.split('/').pop() as string;
    await sameBytes(`${dst}/${name}`, files);
    // The source is untouched.
    await sameBytes(src, files);
  });

  it('moves: each source goes once its copy is verified, and its folders with it', async () => {
    const src = `${from}/${fresh('moving')}`;
    const files = await seed(src, 5);
    const dst = `${to}/${fresh('moved')}`;
    const job = await jobs.createOk({ type: 'move', items: [{ sourcePath: src, targetPath: dst }] });
    expect(await jobs.ended(job.id)).toMatchObject({ status: 'completed', items: { done: 5 } });
    await sameBytes(dst, files);
    expect(await absent(src)).toBe(true);
  });

  it('follows onConflict per file, and retry-failed runs only the failed items again', async () => {
    const src = `${from}/${fresh('conflicts')}`;
    await fs.uploadOk(src, 'a.txt', text('new a'));
    await fs.uploadOk(src, 'b.txt', text('new b'));
    const dst = `${to}/${fresh('taken')}`;
    await fs.uploadOk(dst, 'a.txt', text('old a'));
    const renamed = await jobs.createOk({ type: 'copy', onConflict: 'rename', items: [{ sourcePath: `${src}/a.txt`, targetPath: `${dst}/` }] });
    expect((await jobs.ended(renamed.id)).status).toBe('completed');
    expect(await content(`${dst}/a (1).txt`)).toBe('new a');
    expect(await content(`${dst}/a.txt`)).toBe('old a');

    const skipped = await jobs.createOk({ type: 'copy', items: [{ sourcePath: `${src}/a.txt`, targetPath: `${dst}/` }] });
    expect(await jobs.ended(skipped.id)).toMatchObject({ status: 'completed', items: { total: 1, done: 0, skipped: 1 } });

    const failing = await jobs.createOk({
      type: 'copy',
      onConflict: 'fail',
      items: [
        { sourcePath: `${src}/a.txt`, targetPath: `${dst}/` },
        { sourcePath: `${src}/b.txt`, targetPath: `${dst}/` },
      ],
    });
    const partial = await jobs.ended(failing.id);
    expect(partial).toMatchObject({ status: 'partial', items: { total: 2, done: 1, failed: 1 } });
    expect(partial.failures).toEqual([{ path: `${src}/a.txt`, reason: 'fs_exists', message: expect.stringContaining(`${dst}/a.txt`) }]);
    expect(await content(`${dst}/b.txt`)).toBe('new b');

    // Only a.txt goes again: b.txt, changed in the meantime at the target, is not copied over.
    expect((await fs.remove(`${dst}/a.txt`)).status).toBe(200);
    await fs.uploadOk(dst, 'b.txt', text('kept b'));
    expect((await jobs.actOk(failing.id, 'retry-failed')).status).toMatch(/queued|running|completed/);
    expect(await jobs.ended(failing.id)).toMatchObject({ status: 'completed', items: { total: 2, done: 2, failed: 0 }, failures: [] });
    expect(await content(`${dst}/a.txt`)).toBe('new a');
    expect(await content(`${dst}/b.txt`)).toBe('kept b');
    // Nothing is left to retry.
    expect((await expectError(await jobs.act(failing.id, 'retry-failed'), 409)).data.error).toBe('conflict');
  });

  it('retries the names found taken with the choice the user made, and goes on with a cancelled job', async () => {
    const src = `${from}/${fresh('decided')}`;
    await fs.uploadOk(src, 'a.txt', text('new a'));
    const dst = `${to}/${fresh('decided-at')}`;
    await fs.uploadOk(dst, 'a.txt', text('old a'));
    const job = await jobs.createOk({ type: 'copy', onConflict: 'fail', items: [{ sourcePath: `${src}/a.txt`, targetPath: `${dst}/` }] });
    expect((await jobs.ended(job.id)).failures).toMatchObject([{ reason: 'fs_exists' }]);
    expect((await expectError(await jobs.act(job.id, 'retry-failed', { onConflict: 'overwrite' }), 400)).data.error).toBe('validation');
    await jobs.actOk(job.id, 'retry-failed', { onConflict: 'replace' });
    expect(await jobs.ended(job.id)).toMatchObject({ status: 'completed', onConflict: 'replace', items: { done: 1, failed: 0 } });
    expect(await content(`${dst}/a.txt`)).toBe('new a');

    const many = `${from}/${fresh('cancel-then-retry')}`;
    const files = await seed(many, 40, 256);
    const target = `${to}/${fresh('cancel-then-retry-at')}`;
    const cut = await jobs.createOk({ type: 'copy', items: [{ sourcePath: many, targetPath: target }] });
    await jobs.actOk(cut.id, 'cancel');
    await jobs.until(cut.id, (j) => j.currentItem === null);
    expect((await jobs.actOk(cut.id, 'retry-failed')).status).toMatch(/queued|running|completed/);
    expect(await jobs.ended(cut.id)).toMatchObject({ status: 'completed', items: { total: 40, done: 40, failed: 0 } });
    await sameBytes(target, files);
  });

  it('costs the bucket about one request per small file: one listing per target folder, no look per file', async () => {
    const src = `${from}/${fresh('cheap')}`;
    const files = await seed(src, 60, 256);
    const dst = `${to}/${fresh('cheap-copy')}`;
    const before = s3!.requestCount();
    const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: src, targetPath: dst }] });
    expect(await jobs.ended(job.id)).toMatchObject({ status: 'completed', items: { done: 60 } });
    // 60 files in two folders: a GET or a PUT each, the plan's listing of the source, the two target folders made
    // and listed once each. Looks per file (the target before and after its name was taken, the source, the copy)
    // cost two requests a file from the bucket, six into it.
    expect(s3!.requestCount() - before).toBeLessThanOrEqual(60 + 10);
    await sameBytes(dst, files);
  });

  it('pauses (the items stay where they are), resumes to the end, and a cancelled job stays cancelled', async () => {
    const src = `${from}/${fresh('many')}`;
    // Enough files that the run is still copying when the pause comes (a job writes its counts every 500 ms).
    const files = await seed(src, 300, 256);
    const dst = `${to}/${fresh('paused')}`;
    const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: src, targetPath: dst }] });
    await jobs.until(job.id, (j) => j.status === 'running');
    const paused = await jobs.actOk(job.id, 'pause');
    expect(paused.status).toBe('paused');
    // Still paused once its run has stopped: nothing more is copied.
    const still = await jobs.until(job.id, (j) => j.currentItem === null);
    expect(still.status).toBe('paused');
    expect(still.items.done).toBeLessThan(300);
    expect((await expectError(await jobs.act(job.id, 'pause'), 409)).data).toMatchObject({ status: 'paused' });
    expect((await jobs.actOk(job.id, 'resume')).status).toMatch(/queued|running|completed/);
    expect(await jobs.ended(job.id)).toMatchObject({ status: 'completed', items: { total: 300, done: 300 } });
    await sameBytes(dst, files);

    const second = await jobs.createOk({ type: 'copy', items: [{ sourcePath: src, targetPath: `${to}/${fresh('cancelled')}` }] });
    expect((await jobs.actOk(second.id, 'cancel')).status).toBe('cancelled');
    const cancelled = await jobs.until(second.id, (j) => j.currentItem === null);
    expect(cancelled.status).toBe('cancelled');
    expect((await expectError(await jobs.act(second.id, 'resume'), 409)).data).toMatchObject({ status: 'cancelled' });
    expect(await s3?.pendingUploads()).toEqual([]);
  });

  it('syncs new and changed files, never deleting; a mirror deletes only when confirmed', async () => {
    const src = `${from}/${fresh('sync-src')}`;
    const dst = `${to}/${fresh('sync-dst')}`;
    await fs.uploadOk(src, 'same.txt', text('same'));
    await fs.uploadOk(src, 'changed.txt', text('new content'));
    await fs.uploadOk(`${src}/deep`, 'new.txt', text('new'));
    const first = await jobs.createOk({ type: 'sync', source: src, target: dst });
    expect(first).toMatchObject({ type: 'sync', syncMode: 'copy-new-and-changed', items: { total: 3 } });
    expect((await jobs.ended(first.id)).status).toBe('completed');
    await fs.uploadOk(src, 'changed.txt', text('changed again'));
    await fs.uploadOk(dst, 'extra.txt', text('only in the target'));

    const second = await jobs.createOk({ type: 'sync', source: src, target: dst });
    expect(second.items.total).toBe(1);
    expect(await jobs.ended(second.id)).toMatchObject({ status: 'completed', items: { done: 1 } });
    expect(await content(`${dst}/changed.txt`)).toBe('changed again');
    expect(await content(`${dst}/deep/new.txt`)).toBe('new');
    expect(await content(`${dst}/extra.txt`)).toBe('only in the target');

    const refused = await expectError(await jobs.create({ type: 'sync', source: src, target: dst, mode: 'mirror' }), 400);
    expect(refused.data).toMatchObject({ field: 'confirmMirror', issue: 'mirror_unconfirmed' });
    const mirror = await jobs.createOk({ type: 'sync', source: src, target: dst, mode: 'mirror', confirmMirror: true });
    expect(await jobs.ended(mirror.id)).toMatchObject({ status: 'completed', items: { total: 1, done: 1 } });
    expect(await absent(`${dst}/extra.txt`)).toBe(true);
    expect(await content(`${dst}/same.txt`)).toBe('same');
  });

  it('refuses a job that does not fit the target\'s max upload size or quota, before it starts', async () => {
    const src = `${from}/${fresh('big')}`;
    await seed(src, 3, 600_000);
    const before = (await jobs.listOk()).pagination.total;
    expect((await t.request(`/api/s3-configs/${toConfigId}`, { token, method: 'PUT', json: { total_storage_bytes: 1_000_000 } })).status).toBe(200);
    try {
      const quota = await expectError(await jobs.create({ type: 'copy', items: [{ sourcePath: src, targetPath: `${to}/` }] }), 413);
      expect(quota.data.error).toBe('too_large');
      expect(quota.data).toMatchObject({ remaining: expect.any(Number), total: 1_000_000 });
    } finally {
      expect((await t.request(`/api/s3-configs/${toConfigId}`, { token, method: 'PUT', json: { total_storage_bytes: null } })).status).toBe(200);
    }
    expect((await t.request('/api/admin/system-settings', { token, method: 'PUT', json: { max_upload_size: 0.5 } })).status).toBe(200);
    try {
      const tooLarge = await expectError(await jobs.create({ type: 'copy', items: [{ sourcePath: src, targetPath: `${to}/` }] }), 413);
      expect(tooLarge.data).toMatchObject({ maxUploadSize: 524_288 });
    } finally {
      expect((await t.request('/api/admin/system-settings', { token, method: 'PUT', json: { max_upload_size: 100 } })).status).toBe(200);
    }
    expect((await jobs.listOk()).pagination.total).toBe(before);
    expect(await absent(`${to}/${src.split('/').pop()}`)).toBe(true);
  });

  it('keeps a key inside its base path and to its own jobs; the admin sees them all', async () => {
    const base = `${from}/${fresh('key-base')}`;
    await fs.uploadOk(base, 'mine.txt', text('mine'));
    await fs.uploadOk(`${from}/elsewhere`, 'secret.txt', text('secret'));
    const key = await t.createKey(token, { mount_permission: true, basic_path: base });
    const keyJobs = jobsClient(t, { apiKey: key.key });
    const outside = await expectError(await keyJobs.create({ type: 'copy', items: [{ sourcePath: `${from}/elsewhere/secret.txt`, targetPath: `${base}/` }] }), 403);
    expect(outside.data.error).toBe('forbidden');
    await expectError(await keyJobs.create({ type: 'copy', items: [{ sourcePath: `${base}/mine.txt`, targetPath: `${to}/` }] }), 403);
    await expectError(await keyJobs.create({ type: 'sync', source: base, target: `${from}/elsewhere` }), 403);

    const own = await keyJobs.createOk({ type: 'copy', items: [{ sourcePath: `${base}/mine.txt`, targetPath: `${base}/copies/` }] });
    expect(own.createdBy).toEqual({ kind: 'apiKey', name: key.name, id: key.id });
    expect((await keyJobs.ended(own.id)).status).toBe('completed');
    expect(await content(`${base}/copies/mine.txt`)).toBe('mine');
    const listed = await keyJobs.listOk();
    expect(listed.items.map((job) => job.id)).toEqual([own.id]);
    const adminList = await jobs.listOk('?status=completed&limit=200');
    expect(adminList.items.map((job) => job.id)).toContain(own.id);
    expect(adminList.items.every((job) => job.status === 'completed')).toBe(true);
    // Another's job is not there for a key; the admin's area is not for keys at all.
    await expectError(await keyJobs.get(adminList.items.find((job) => job.id !== own.id)?.id ?? 'none'), 404);
    await expectError(await t.request('/api/admin/jobs', { apiKey: key.key }), 403);
    const noMount = await t.createKey(token, { mount_permission: false });
    await expectError(await jobsClient(t, { apiKey: noMount.key }).list(), 403);
    await expectError(await t.request('/api/user/jobs'), 401);
    await expectError(await jobs.get('no-such-job'), 404);
    await expectError(await jobs.create({ type: 'copy', items: [] }), 400);
    await expectError(await jobs.list('?status=sleeping'), 400);
  });

  it('cancels a key\'s job at its next start once the key is deleted', async () => {
    const base = `${from}/${fresh('doomed')}`;
    await seed(`${base}/src`, 100, 256);
    const key = await t.createKey(token, { mount_permission: true, basic_path: base });
    const keyJobs = jobsClient(t, { apiKey: key.key });
    // A job paused, its key deleted, then resumed: it does not run as nobody.
    const big = await keyJobs.createOk({ type: 'copy', items: [{ sourcePath: `${base}/src`, targetPath: `${base}/all/` }] });
    await keyJobs.actOk(big.id, 'pause');
    expect((await t.request(`/api/admin/api-keys/${key.id}`, { token, method: 'DELETE' })).status).toBe(200);
    await jobs.actOk(big.id, 'resume');
    const cancelled = await jobs.ended(big.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', error: { reason: 'api_key_invalid', message: expect.stringMatching(/API key/) } });
  });
});
