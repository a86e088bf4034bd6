import { describe, expect, it } from 'vitest';
import { Scheduler } from './scheduler';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Scheduler', () => {
  it('never exceeds the per-upload or the global budget', async () => {
    const scheduler = new Scheduler({ global: 5, perUpload: 3 });
    const running = new Map<string, number>();
    let peak = 0;
    const peakBy = new Map<string, number>();
    const work = async (upload: string) => {
      const release = await scheduler.acquire(upload);
      running.set(upload, (running.get(upload) ?? 0) + 1);
      const total = [...running.values()].reduce((a, b) => a + b, 0);
      peak = Math.max(peak, total);
      peakBy.set(upload, Math.max(peakBy.get(upload) ?? 0, running.get(upload) ?? 0));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      running.set(upload, (running.get(upload) ?? 1) - 1);
      release();
    };
    const jobs = [];
    for (let part = 0; part < 20; part++) for (const upload of ['a', 'b', 'c', 'd']) jobs.push(work(upload));
    await Promise.all(jobs);
    expect(peak).toBe(5);
    for (const value of peakBy.values()) expect(value).toBeLessThanOrEqual(3);
    expect(scheduler.active).toBe(0);
  });

  it('serves uploads that already started before new ones, even when the new one asked first', async () => {
    const scheduler = new Scheduler({ global: 1, perUpload: 1 });
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const take = (upload: string) => scheduler.acquire(upload).then((release) => (order.push(upload), releases.push(release)));
    void take('started');
    await tick();
    void take('fresh');
    void take('started');
    await tick();
    releases.shift()?.();
    await tick();
    expect(order).toEqual(['started', 'started']);
    releases.shift()?.();
    await tick();
    expect(order).toEqual(['started', 'started', 'fresh']);
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
    const scheduler = new Scheduler({ global: 6, perUpload: 1 });
    const granted: (() => void)[] = [];
    for (let part = 0; part < 4; part++) void scheduler.acquire('a').then((release) => granted.push(release));
    await tick();
    expect(granted).toHaveLength(1);
    scheduler.configure({ global: 6, perUpload: 3 });
    await tick();
    expect(granted).toHaveLength(3);
    expect(scheduler.active).toBe(3);
    scheduler.configure({ global: 6, perUpload: 1 });
    granted.shift()?.();
    await tick();
    // Two still in flight, over the new limit of one: the last waiter waits until they are done.
    expect(scheduler.active).toBe(2);
    granted.shift()?.();
    granted.shift()?.();
    await tick();
    expect(scheduler.active).toBe(1);
    expect(granted).toHaveLength(1);
    granted.shift()?.();
  });
});
