import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobSchema, type Job } from '../../../contract/jobs';
import { createApp } from '../../app';
import { openDatabase } from '../../db/database';
import { bytesOf, sha256, type Bytes } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import { jobsClient } from '../../../tests/fixtures/jobs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { createTestApp, expectOk, type TestApp } from '../../../tests/fixtures/test-app';
import { jobsOf } from './service';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

/** A job outlives its server (another app on the same database goes on with it), and is watched live. */
describe('server jobs over restarts and live streams', () => {
  let t: TestApp;
  let token: string;
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let jobs: ReturnType<typeof jobsClient>;
  let bucket: string;

  beforeAll(async () => {
    // A short lease: on PostgreSQL the queue hands a job over within a few seconds.
    t = await createTestApp({ env: { JOB_LEASE_SECONDS: '3' } });
    token = await t.login();
    fs = fsClient(t, { token });
    jobs = jobsClient(t, { token });
    const mount = await mountOfKind(t, token, 'S3', { mount: { cache_ttl: 0 } });
    s3 = mount.s3;
    bucket = mount.root;
  });
  afterAll(async () => {
    await jobsOf(t.deps).stop();
    await t.close();
    await s3?.stop();
  });

  const seed = async (folder: string, count: number) => {
    const files = Array.from({ length: count }, (_, i) => ({ relativePath: `f-${i}.bin`, bytes: randomBytes(2048 + i) as Bytes }));
    for (let start = 0; start < count; start += 100) expect((await fs.uploadBatch(folder, files.slice(start, start + 100))).status).toBe(200);
    return files;
  };

  it('goes on from its records in a second app on the same database, byte for byte', async () => {
    // Enough files that the stop below comes mid-job however fast the copies run (80 were all done at times).
    const count = 300;
    const files = await seed('/local/restart', count);
    const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: '/local/restart', targetPath: `${bucket}/restarted` }] });
    await jobs.until(job.id, (j) => j.items.done > 0);
    // The first server stops mid-job: what it had in flight goes back to its items.
    await jobsOf(t.deps).stop();
    const left = await jobs.getOk(job.id);
    expect(left.status).toBe('running');
    expect(left.items.done).toBeLessThan(count);

    const db = await openDatabase(t.dataDir, t.deps.config.databaseUrl);
    const deps = { ...t.deps, db };
    const second = createApp(deps);
    try {
      await jobsOf(deps).start();
      let ended: Job | undefined;
      await vi.waitFor(
        async () => {
          const res = await second.request(`/api/admin/jobs/${job.id}`, { headers: { authorization: `Bearer ${token}` } });
          ended = await expectOk(res, jobSchema);
          expect(ended.status).toBe('completed');
        },
        { timeout: 120_000, interval: 100 },
      );
      expect(ended?.items).toEqual({ total: count, done: count, skipped: 0, failed: 0 });
      expect(ended?.bytes.done).toBe(ended?.bytes.total);
    } finally {
      await jobsOf(deps).stop();
      await db.destroy();
    }
    for (const file of files) expect(sha256(await bytesOf(await fs.download(`${bucket}/restarted/${file.relativePath}`)))).toBe(sha256(file.bytes));
    expect(await s3?.pendingUploads()).toEqual([]);
  });

  it('streams a snapshot, then every change of a job to a second client, to its end; a key sees only its own', async () => {
    await seed('/local/watched', 40);
    const key = await t.createKey(token, { mount_permission: true, basic_path: '/local/watched' });
    const keyJobs = jobsClient(t, { apiKey: key.key });
    const admin = await jobs.events();
    const own = await keyJobs.events();
    try {
      const snapshot = await admin.next();
      expect(snapshot.type).toBe('snapshot');
      expect((await own.next()).type).toBe('snapshot');
      // Started by the admin; the admin's stream (another client) and not the key's hears of it.
      const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: '/local/watched', targetPath: `${bucket}/watched` }] });
      // Every state of the job on the way, in order: a small job may end before a count in between is written, so
      // what is asked is the start, counts that only grow, and the end.
      const seen: Job[] = [];
      await admin.until((event) => {
        if (event.type !== 'job' || event.job.id !== job.id) return false;
        seen.push(event.job);
        return event.job.status === 'completed';
      });
      expect(seen.slice(0, -1).map((state) => state.status)).toContain('running');
      expect(seen.slice(0, -1).every((state) => state.status === 'queued' || state.status === 'running')).toBe(true);
      const bytesDone = seen.map((state) => state.bytes.done);
      expect(bytesDone).toEqual([...bytesDone].sort((a, b) => a - b));
      expect(seen.at(-1)?.bytes.done).toBe(job.bytes.total);
      expect(seen.at(-1)?.items).toEqual({ total: 40, done: 40, skipped: 0, failed: 0 });

      const mine = await keyJobs.createOk({ type: 'copy', items: [{ sourcePath: '/local/watched/f-1.bin', targetPath: '/local/watched/copies/' }] });
      const first = await own.until((event) => event.type === 'job');
      expect(first.type === 'job' && first.job.id).toBe(mine.id);
    } finally {
      await admin.close();
      await own.close();
    }
  });
});
