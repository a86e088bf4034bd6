import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_EVENTS_PER_SECOND, type EngineEvent } from '../../contract/transfer';
import { emptyItemsResult, itemReporter } from './fs-items';

const INTERVAL = 1000 / PROGRESS_EVENTS_PER_SECOND;

/** A reporter over `total` items on a clock the test moves (`clock.ms`), what it emitted, and its item events. */
function reporting(total: number, signal?: AbortSignal) {
  const clock = { ms: 0 };
  const events: EngineEvent[] = [];
  const result = emptyItemsResult();
  const report = itemReporter('t', (event) => events.push(event), total, result, { now: () => clock.ms, signal });
  const items = () => events.flatMap((event) => (event.type === 'engine.item' ? [event] : []));
  return { report, result, events, items, clock };
}

describe('itemReporter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports the first item, then at most PROGRESS_EVENTS_PER_SECOND a second, and the last always with the final counts', () => {
    const { report, result, events, items, clock } = reporting(30);

    for (let file = 0; file < 30; file++) {
      clock.ms = file * (INTERVAL / 10); // ten files per interval
      report(`/f${file}`);
      result.succeeded.push(`/f${file}`);
    }
    report('/f29', true);

    expect(items().map((event) => event.currentFile)).toEqual(['/f0', '/f10', '/f20', '/f29']);
    expect(items().at(-1)?.counts).toEqual({ success: 30, skipped: 0, failed: 0 });
    expect(events.filter((event) => event.type === 'engine.progress').at(-1)).toMatchObject({ progress: { loaded: 30, total: 30, percent: 100 } });
  });

  it('sends a report it held back once its interval has passed, with the counts of that moment', () => {
    const { report, result, items, clock } = reporting(3);

    report('/small');
    result.succeeded.push('/small');
    clock.ms = INTERVAL / 10;
    report('/large');
    expect(items().map((event) => event.currentFile)).toEqual(['/small']);

    // The large file takes minutes: nothing else reports, yet the page learns which file it is on.
    clock.ms = INTERVAL;
    vi.advanceTimersByTime(INTERVAL);
    expect(items().map((event) => event.currentFile)).toEqual(['/small', '/large']);
    expect(items().at(-1)?.counts).toEqual({ success: 1, skipped: 0, failed: 0 });
    vi.advanceTimersByTime(INTERVAL * 10);
    expect(items()).toHaveLength(2);
  });

  it('sends nothing held back once the task has stopped', () => {
    const stop = new AbortController();
    const { report, items, clock } = reporting(3, stop.signal);

    report('/a');
    clock.ms = INTERVAL / 10;
    report('/b');
    stop.abort();
    clock.ms = INTERVAL * 2;
    vi.advanceTimersByTime(INTERVAL * 2);
    expect(items().map((event) => event.currentFile)).toEqual(['/a']);
  });
});
