import { describe, expect, it } from 'vitest';
import { Scheduler } from './scheduler';

/** Lets other jobs run for `turns` turns of the microtask queue: work of a given length, without a timer. */
const work = async (turns: number) => {
  for (let turn = 0; turn < turns; turn++) await Promise.resolve();
};

describe('Scheduler', () => {
  it('never exceeds the per-upload or the global budget', async () => {
    const scheduler = new Scheduler({ global: 5, perUpload: 3 });
    const running = new Map<string, number>();
    let peak = 0;
    const peakBy = new Map<string, number>();
    // Jobs of different lengths (a fixed spread, so a failure repeats) finish in an order other than their start.
    const job = async (upload: string, index: number) => {
      const release = await scheduler.acquire(upload);
      running.set(upload, (running.get(upload) ?? 0) + 1);
      const total = [...running.values()].reduce((a, b) => a + b, 0);
      peak = Math.max(peak, total);
      peakBy.set(upload, Math.max(peakBy.get(upload) ?? 0, running.get(upload) ?? 0));
      await work((index * 7) % 11);
      running.set(upload, (running.get(upload) ?? 1) - 1);
      release();
    };
    const jobs = [];
    for (let part = 0; part < 20; part++) for (const upload of ['a', 'b', 'c', 'd']) jobs.push(job(upload, jobs.length));
    await Promise.all(jobs);
    expect(peak).toBe(5);
    for (const value of peakBy.values()) expect(value).toBeLessThanOrEqual(3);
    expect(scheduler.active).toBe(0);
  });

  it('serves uploads that already started before new ones, even when the new one asked first', async () => {
    const scheduler = new Scheduler({ global: 1, perUpload: 1 });
    const first = await scheduler.acquire('started');
    const fresh = scheduler.acquire('fresh').then((release) => ({ upload: 'fresh', release }));
    const again = scheduler.acquire('started').then((release) => ({ upload: 'started', release }));
    first();
    // One slot: whichever the release granted is the only one that settles.
    const second = await Promise.race([fresh, again]);
    expect(second.upload).toBe('started');
    second.release();
    (await fresh).release();
    expect(scheduler.active).toBe(0);
  });

  it('drops a cancelled wait and rejects it as cancelled', async () => {
    const scheduler = new Scheduler({ global: 1, perUpload: 1 });
    const first = await scheduler.acquire('a');
    const controller = new AbortController();
    const waiting = scheduler.acquire('b', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    first();
    const next = await scheduler.acquire('c');
    expect(scheduler.active).toBe(1);
    next();
  });

  it('takes new limits: a higher one grants the waiting at once, a lower one lets those in flight finish', async () => {
    // Grants are made as limits and releases change (scheduler.active says it at once); awaiting one hands its release.
    const scheduler = new Scheduler({ global: 6, perUpload: 1 });
    const grants = Array.from({ length: 4 }, () => scheduler.acquire('a'));
    expect(scheduler.active).toBe(1);
    scheduler.configure({ global: 6, perUpload: 3 });
    expect(scheduler.active).toBe(3);
    const releases = await Promise.all(grants.slice(0, 3));
    scheduler.configure({ global: 6, perUpload: 1 });
    releases[0]?.();
    // Two still in flight, over the new limit of one: the last waiter waits until they are done.
    expect(scheduler.active).toBe(2);
    releases[1]?.();
    expect(scheduler.active).toBe(1);
    releases[2]?.();
    expect(scheduler.active).toBe(1);
    (await grants[3])?.();
    expect(scheduler.active).toBe(0);
  });
});
