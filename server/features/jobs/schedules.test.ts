import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { jobSchema, syncDryRunSchema, syncScheduleSchema } from '../../../contract/jobs';
import { bytesOf, type Bytes } from '../../../tests/fixtures/files';
import { fsClient } from '../../../tests/fixtures/fs';
import { jobsClient } from '../../../tests/fixtures/jobs';
import { createTestApp, expectError, expectOk, HOUR, type TestApp } from '../../../tests/fixtures/test-app';
import { runDueSchedules } from './schedules';
import { jobsOf } from './service';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const text = (value: string) => Buffer.from(value) as Bytes;

describe('sync schedules', () => {
  let t: TestApp;
  let token: string;
  let fs: ReturnType<typeof fsClient>;
  let jobs: ReturnType<typeof jobsClient>;
  const base = '/api/admin/sync-schedules';

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    fs = fsClient(t, { token });
    jobs = jobsClient(t, { token });
    await fs.uploadOk('/local/photos', 'a.jpg', text('a'));
    await fs.uploadOk('/local/photos/2030', 'b.jpg', text('bb'));
    await fs.uploadOk('/local/backup', 'stale.jpg', text('only in the backup'));
  });
  afterAll(async () => {
    await jobsOf(t.deps).stop();
    await t.close();
  });

  const create = (json: Record<string, unknown>) => t.request(base, { token, json });

  it('refuses a mirror without confirmation, an unreadable cron, and keys', async () => {
    const mirror = await expectError(await create({ source: '/local/photos', target: '/local/backup', cron: '0 3 * * *', mode: 'mirror' }), 400);
    expect(mirror.data).toMatchObject({ field: 'confirmMirror', issue: 'mirror_unconfirmed' });
    expect((await expectError(await create({ source: '/local/photos', target: '/local/backup', cron: 'every night' }), 400)).data).toMatchObject({ field: 'cron' });
    expect((await expectError(await create({ source: '/local/photos', target: '/local/backup', cron: '0 0 3 * * *' }), 400)).data).toMatchObject({ field: 'cron' });
    await expectError(await create({ source: '/local/photos', target: '/local/photos/inside', cron: '0 3 * * *' }), 400);
    const key = await t.createKey(token, { mount_permission: true });
    await expectError(await t.request(base, { apiKey: key.key }), 403);
  });

  it('lists its next run, dry-runs, runs now as a job named after it, runs when due, and is deleted', async () => {
    const schedule = await expectOk(
      await create({ source: '/local/photos', target: '/local/backup', cron: '0 3 * * *', mode: 'mirror', confirmMirror: true }),
      syncScheduleSchema,
      201,
    );
    // The test clock stands at 2030-01-15 12:00 UTC.
    expect(schedule).toMatchObject({ mode: 'mirror', enabled: true, nextRunAt: '2030-01-16T03:00:00.000Z', lastRunAt: null });
    expect(await expectOk(await t.request(base, { token }), v.array(syncScheduleSchema))).toEqual([schedule]);

    const dry = await expectOk(await t.request(`${base}/${schedule.id}/dry-run`, { token, method: 'POST' }), syncDryRunSchema);
    expect(dry).toEqual({
      copy: expect.arrayContaining([
        { path: '/local/photos/a.jpg', size: 1, why: 'new' },
        { path: '/local/photos/2030/b.jpg', size: 2, why: 'new' },
      ]),
      delete: [{ path: '/local/backup/stale.jpg' }],
      copyCount: 2,
      deleteCount: 1,
      bytes: 3,
    });
    // A dry run changes nothing.
    expect((await fs.get('/local/backup/stale.jpg')).status).toBe(200);

    const job = await expectOk(await t.request(`${base}/${schedule.id}/run`, { token, method: 'POST' }), jobSchema, 201);
    expect(job).toMatchObject({ type: 'sync', syncMode: 'mirror', scheduleId: schedule.id, createdBy: { kind: 'schedule', id: schedule.id, name: '/local/photos → /local/backup' } });
    expect((await jobs.ended(job.id)).status).toBe('completed');
    expect((await bytesOf(await fs.download('/local/backup/2030/b.jpg'))).toString()).toBe('bb');
    expect((await fs.get('/local/backup/stale.jpg')).status).toBe(404);
    const ran = await expectOk(await t.request(`${base}/${schedule.id}`, { token }), syncScheduleSchema);
    expect(ran).toMatchObject({ lastJobId: job.id, lastRunAt: '2030-01-15T12:00:00.000Z' });

    // Due once the clock passes its next run: the leader starts it and computes the run after.
    await fs.uploadOk('/local/photos', 'c.jpg', text('ccc'));
    t.clock.advance(16 * HOUR);
    await runDueSchedules(t.deps);
    const due = await expectOk(await t.request(`${base}/${schedule.id}`, { token }), syncScheduleSchema);
    expect(due.nextRunAt).toBe('2030-01-17T03:00:00.000Z');
    expect(due.lastJobId).not.toBe(job.id);
    expect(await jobs.ended(due.lastJobId as string)).toMatchObject({ status: 'completed', items: { total: 1, done: 1 } });

    const paused = await expectOk(
      await t.request(`${base}/${schedule.id}`, { token, method: 'PUT', json: { source: '/local/photos', target: '/local/backup', cron: '0 4 * * *', enabled: false } }),
      syncScheduleSchema,
    );
    expect(paused).toMatchObject({ enabled: false, nextRunAt: null, mode: 'copy-new-and-changed', cron: '0 4 * * *' });
    expect((await t.request(`${base}/${schedule.id}`, { token, method: 'DELETE' })).status).toBe(200);
    await expectError(await t.request(`${base}/${schedule.id}`, { token }), 404);
  });
});
