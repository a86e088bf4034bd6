import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import type { JournalEvent } from '../../contract/transfer';
import { openJournal } from './store';

const queued = (taskId: string): JournalEvent => ({
  type: 'queued',
  taskId,
  at: 1,
  kind: 'url',
  label: 'x',
  url: 'https://example.com/x',
  mimetype: 'text/plain',
  options: { expires_in: 0, max_views: 0 },
  partSize: 5,
  partCount: 2,
  size: 10,
});

describe('journal store (IndexedDB)', () => {
  it('appends, rebuilds in write order, and forgets a task', async () => {
    const journal = openJournal();
    await journal.append(queued('a'));
    await journal.append(queued('b'));
    await journal.append({ type: 'partDone', taskId: 'a', at: 2, part: { partNumber: 1, size: 5, etag: 'e' } });
    await journal.append({ type: 'completed', taskId: 'b', at: 3, result: { slug: 'b' } });
    const tasks = await openJournal().tasks();
    expect(tasks.get('a')?.parts[1]?.etag).toBe('e');
    expect(tasks.get('b')?.status).toBe('completed');
    // One task from its own events alone: the same as the whole log's replay gives.
    expect(await journal.task('a')).toEqual(tasks.get('a'));
    expect(await journal.task('b')).toEqual(tasks.get('b'));
    expect(await journal.task('none')).toBeUndefined();
    await journal.forget('a');
    expect([...(await journal.tasks()).keys()]).toEqual(['b']);
  });

  it('tells no other context of its writes (no Dexie storage-mutated notice)', async () => {
    const notices = vi.fn();
    Dexie.on('storagemutated', notices);
    try {
      const journal = openJournal();
      await journal.append(queued('c'));
      await journal.forget('c');
      expect(notices).not.toHaveBeenCalled();
    } finally {
      Dexie.on('storagemutated').unsubscribe(notices);
    }
  });
});
