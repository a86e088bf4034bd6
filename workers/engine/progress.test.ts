import { describe, expect, it } from 'vitest';
import { PROGRESS_EVENTS_PER_SECOND, type TransferProgress } from '../../contract/transfer';
import { ProgressMeter } from './progress';

describe('ProgressMeter', () => {
  it('lets through at most 5 updates a second, always the first and the last', () => {
    let now = 0;
    const seen: TransferProgress[] = [];
    const meter = new ProgressMeter(1000, (progress) => seen.push(progress), () => now);
    for (let loaded = 0; loaded < 1000; loaded += 10) {
      meter.update(loaded);
      now += 10; // 100 updates over one second
    }
    meter.update(1000);
    // The first at 0 ms, then one every 200 ms, and the last.
    expect(seen.length).toBeLessThanOrEqual(PROGRESS_EVENTS_PER_SECOND + 1);
    expect(seen.length).toBeGreaterThanOrEqual(PROGRESS_EVENTS_PER_SECOND);
    expect(seen[0]?.loaded).toBe(0);
    expect(seen.at(-1)).toMatchObject({ loaded: 1000, percent: 100, secondsLeft: 0 });
  });

  it('computes speed and time left', () => {
    let now = 0;
    const seen: TransferProgress[] = [];
    const meter = new ProgressMeter(10_000, (progress) => seen.push(progress), () => now);
    meter.update(0);
    now = 1000;
    meter.update(1000); // 1000 B/s
    expect(seen.at(-1)).toMatchObject({ loaded: 1000, percent: 10, speed: 1000, secondsLeft: 9 });
  });

  it('reports an empty file as done', () => {
    const seen: TransferProgress[] = [];
    new ProgressMeter(0, (progress) => seen.push(progress), () => 0).update(0);
    expect(seen).toEqual([{ loaded: 0, total: 0, percent: 100, speed: 0, secondsLeft: null }]);
  });
});
