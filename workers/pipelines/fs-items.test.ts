import { describe, expect, it } from 'vitest';
import { PROGRESS_EVENTS_PER_SECOND, type EngineEvent } from '../../contract/transfer';
import { emptyItemsResult, itemReporter } from './fs-items';

const INTERVAL = 1000 / PROGRESS_EVENTS_PER_SECOND;

describe('itemReporter', () => {
  it('reports the first item, then at most PROGRESS_EVENTS_PER_SECOND a second, and the last always with the final counts', () => {
    const events: EngineEvent[] = [];
    let now = 0;
    const result = emptyItemsResult();
    const report = itemReporter('t', (event) => events.push(event), 30, result, () => now);
    const items = () => events.flatMap((event) => (event.type === 'engine.item' ? [event] : []));

    for (let file = 0; file < 30; file++) {
      now = file * (INTERVAL / 10); // ten files per interval
      report(`/f${file}`);
      result.succeeded.push(`/f${file}`);
    }
    report('/f29', true);

    expect(items().map((event) => event.currentFile)).toEqual(['/f0', '/f10', '/f20', '/f29']);
    expect(items().at(-1)?.counts).toEqual({ success: 30, skipped: 0, failed: 0 });
    expect(events.filter((event) => event.type === 'engine.progress').at(-1)).toMatchObject({ progress: { loaded: 30, total: 30, percent: 100 } });
  });
});
