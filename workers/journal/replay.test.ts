import { describe, expect, it } from 'vitest';
import type { FileShare } from '../../contract/files';
import type { JournalEvent } from '../../contract/transfer';
import { doneBytes, missingParts, replay } from './replay';

const MIB = 1024 * 1024;
const queued: JournalEvent = {
  type: 'queued',
  taskId: 't1',
  at: 1,
  kind: 'multipart',
  label: 'big.iso',
  file: { name: 'big.iso', size: 12 * MIB, lastModified: 5, type: 'application/octet-stream' },
  mimetype: 'application/octet-stream',
  options: { expires_in: 0, max_views: 0 },
  partSize: 5 * MIB,
  partCount: 3,
  size: 12 * MIB,
};

describe('journal replay', () => {
  it('rebuilds a task in progress with the parts already done', () => {
    const tasks = replay([
      queued,
      { type: 'started', taskId: 't1', at: 2, fileId: 'f1', uploadId: 'u1' },
      { type: 'partDone', taskId: 't1', at: 3, part: { partNumber: 2, size: 5 * MIB, etag: 'e2' } },
      { type: 'partDone', taskId: 't1', at: 4, part: { partNumber: 1, size: 5 * MIB, etag: 'e1' } },
    ]);
    const task = tasks.get('t1');
    expect(task).toMatchObject({ status: 'running', fileId: 'f1', uploadId: 'u1', queuedAt: 1, label: 'big.iso' });
    expect(missingParts(task!)).toEqual([3]);
    expect(doneBytes(task!)).toBe(10 * MIB);
  });

  it('ends tasks as the log says, and keeps tasks apart', () => {
    const tasks = replay([
      queued,
      { ...queued, taskId: 't2' },
      { type: 'failed', taskId: 't1', at: 5, error: { code: 'network' } },
      { type: 'cancelled', taskId: 't2', at: 6 },
    ]);
    expect(tasks.get('t1')).toMatchObject({ status: 'failed', error: { code: 'network' } });
    expect(tasks.get('t2')?.status).toBe('cancelled');
  });

  it('a part reported twice counts once', () => {
    const part = { partNumber: 1, size: 5 * MIB, etag: 'e1' };
    const task = replay([queued, { type: 'partDone', taskId: 't1', at: 2, part }, { type: 'partDone', taskId: 't1', at: 3, part }]).get('t1')!;
    expect(doneBytes(task)).toBe(5 * MIB);
    expect(missingParts(task)).toEqual([2, 3]);
  });

  it('keeps a share batch’s files done and their shares, across runs', () => {
    const share = (slug: string) => ({ id: slug, slug, filename: `${slug}.txt` }) as FileShare;
    const batch: JournalEvent = { ...queued, taskId: 'b1', kind: 'shareBatch', label: 'Share 3 files', partSize: 0, partCount: 0, size: 30 };
    const task = replay([
      batch,
      { type: 'itemsDone', taskId: 'b1', at: 2, paths: ['a.txt'], shares: [{ path: 'a.txt', share: share('a') }] },
      { type: 'completed', taskId: 'b1', at: 3, result: {} },
      // A retry of the failed ones.
      { type: 'itemsDone', taskId: 'b1', at: 4, paths: ['c.txt'], shares: [{ path: 'c.txt', share: share('c') }] },
    ]).get('b1')!;
    expect(task.done).toEqual(['a.txt', 'c.txt']);
    expect(task.shares?.map((entry) => entry.share.slug)).toEqual(['a', 'c']);
  });

  it('ignores events of tasks that were never queued', () => {
    expect(replay([{ type: 'cancelled', taskId: 'ghost', at: 1 }]).size).toBe(0);
  });
});
