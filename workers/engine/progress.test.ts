import { describe, expect, it } from 'vitest';
import { PROGRESS_EVENTS_PER_SECOND, PROGRESS_FIGURES_EVERY_MS, type TransferProgress } from '../../contract/transfer';
import { ProgressMeter } from './progress';

/** A meter for `total` bytes on a clock the test moves (`clock.ms`), and the updates it let through. */
function metered(total: number) {
  const clock = { ms: 0 };
  const seen: TransferProgress[] = [];
  const meter = new ProgressMeter(total, (progress) => seen.push(progress), () => clock.ms);
  return { meter, seen, clock };
}

describe('ProgressMeter', () => {
  it('lets through at most PROGRESS_EVENTS_PER_SECOND updates a second, always the first and the last', () => {
    const { meter, seen, clock } = metered(1000);
    for (let loaded = 0; loaded < 1000; loaded += 10) {
      meter.update(loaded);
      clock.ms += 10; // 100 updates over one second
    }
    meter.update(1000);
    // The first at 0 ms, then one every 1000 / PROGRESS_EVENTS_PER_SECOND ms, and the last.
    expect(seen.length).toBeLessThanOrEqual(PROGRESS_EVENTS_PER_SECOND + 1);
    expect(seen.length).toBeGreaterThanOrEqual(PROGRESS_EVENTS_PER_SECOND);
    expect(seen[0]?.loaded).toBe(0);
    expect(seen.at(-1)).toMatchObject({ loaded: 1000, percent: 100, secondsLeft: 0 });
  });

  it('computes speed and time left', () => {
    const { meter, seen, clock } = metered(10_000);
    meter.update(0);
    clock.ms = 1000;
    meter.update(1000); // 1000 B/s
    expect(seen.at(-1)).toMatchObject({ loaded: 1000, percent: 10, speed: 1000, secondsLeft: 9 });
  });

  it('reports an empty file as done', () => {
    const seen: TransferProgress[] = [];
    new ProgressMeter(0, (progress) => seen.push(progress), () => 0).update(0);
    expect(seen).toEqual([{ loaded: 0, total: 0, percent: 100, speed: 0, secondsLeft: null }]);
  });

  it('sends nothing while percent, speed and time left would show as last sent', () => {
    const { meter, seen, clock } = metered(1_000_000);
    meter.update(0);
    for (let loaded = 1000; clock.ms < PROGRESS_FIGURES_EVERY_MS - 100; loaded += 1000) {
      clock.ms += 300; // past the rate limit each time, but still 0 % and the same figures
      meter.update(loaded);
    }
    expect(seen).toHaveLength(1);
    clock.ms = PROGRESS_FIGURES_EVERY_MS;
    meter.update(5000); // the figures are due: speed and time left are news
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ loaded: 5000, percent: 0 });
    expect(seen[1]?.speed).toBeGreaterThan(0);
  });

  it('works out speed and time left afresh once per PROGRESS_FIGURES_EVERY_MS, however often the percent moves', () => {
    const { meter, seen, clock } = metered(10_000);
    for (let loaded = 0; loaded < 3000; loaded += 10 + (clock.ms % 7)) {
      meter.update(loaded); // an uneven rate: each new speed sample differs
      clock.ms += 10;
    }
    const seconds = clock.ms / 1000;
    expect(seen.length).toBeGreaterThan(seconds * (PROGRESS_EVENTS_PER_SECOND - 1));
    const figures = new Set(seen.map((progress) => `${progress.speed} ${progress.secondsLeft}`));
    expect(figures.size).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / PROGRESS_FIGURES_EVERY_MS) + 1);
  });

  it('always delivers the exact last update, even right after another', () => {
    const { meter, seen, clock } = metered(1000);
    meter.update(0);
    clock.ms = 500;
    meter.update(990);
    clock.ms = 501;
    meter.update(1000);
    expect(seen.at(-1)).toEqual({ loaded: 1000, total: 1000, percent: 100, speed: expect.any(Number), secondsLeft: 0 });
  });

  it('averages the speed over the last five seconds of acknowledged bytes, and lets it fall while nothing lands', () => {
    const { meter, seen, clock } = metered(100_000_000);
    meter.update(0);
    for (let second = 1; second <= 10; second++) {
      clock.ms = second * 1000;
      meter.update(second * 1_000_000); // 1 MB acknowledged each second
    }
    expect(seen.at(-1)?.speed).toBe(1_000_000);
    // Three parts land at once: the speed shown is still the window's average, not a burst.
    clock.ms = 10_500;
    meter.update(13_000_000);
    clock.ms = 11_000;
    meter.update(13_000_000);
    expect(seen.at(-1)?.speed).toBe(1_400_000); // 7 MB over the last 5 s
    for (let second = 12; second <= 17; second++) {
      clock.ms = second * 1000;
      meter.update(13_000_000); // the heartbeat: nothing new acknowledged
    }
    expect(seen.at(-1)?.speed).toBe(0);
    expect(seen.at(-1)?.secondsLeft).toBeNull();
  });

  it('stall shows no speed and no time left at once, and the speed starts afresh afterwards', () => {
    const { meter, seen, clock } = metered(10_000_000);
    meter.update(0);
    clock.ms = 1000;
    meter.update(1_000_000);
    clock.ms = 1100;
    meter.stall();
    expect(seen.at(-1)).toMatchObject({ loaded: 1_000_000, speed: 0, secondsLeft: null });
    clock.ms = 60_000; // a minute offline
    meter.update(1_000_000);
    clock.ms = 61_000;
    meter.update(2_000_000);
    expect(seen.at(-1)?.speed).toBe(1_000_000);
  });
});
