import { describe, expect, it } from 'vitest';
import { BatchedWrites } from './batched-writes';

describe('BatchedWrites', () => {
  const collector = () => {
    const written: { key: string; count: number }[][] = [];
    const writes = new BatchedWrites<{ key: string; count: number }>(async (batch) => {
      written.push(batch.map((item) => ({ ...item })));
    }, 'test write failed', 60_000);
    return { written, writes };
  };

  it('counts into one held item per key until the batch is written', async () => {
    const { written, writes } = collector();
    for (const key of ['a', 'b', 'a', 'a']) writes.keyed(key, () => ({ key, count: 0 })).count++;
    expect(writes.size).toBe(2);
    await writes.flush();
    expect(written).toEqual([[{ key: 'a', count: 3 }, { key: 'b', count: 1 }]]);
  });

  it('starts a new item for a key once its batch was taken', async () => {
    const { written, writes } = collector();
    writes.keyed('a', () => ({ key: 'a', count: 0 })).count++;
    const first = writes.flush();
    writes.keyed('a', () => ({ key: 'a', count: 0 })).count++;
    await first;
    await writes.flush();
    expect(written).toEqual([[{ key: 'a', count: 1 }], [{ key: 'a', count: 1 }]]);
  });
});
