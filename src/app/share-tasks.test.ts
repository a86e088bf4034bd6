import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { FileShare } from '../../contract/files';
import type { JournalTask, ShareBatchResult } from '../../contract/transfer';
import { taskMachine } from '../../machines/task.machine';
import { shareBatchKeys, shareBatchTask } from './share-tasks';
import { taskFromJournal } from './tasks';

describe('files shared together', () => {
  it('are keyed by name, a name seen before getting “ (2)”, “ (3)”…', () => {
    expect(shareBatchKeys(['a.txt', 'b.txt', 'a.txt', 'a (2).txt', 'a.txt'])).toEqual(['a.txt', 'b.txt', 'a.txt (2)', 'a (2).txt', 'a.txt (3)']);
    expect(shareBatchKeys(['x', 'x (2)', 'x'])).toEqual(['x', 'x (2)', 'x (3)']);
  });

  it('are one task with the page’s options and storage, never a custom slug', () => {
    const files = [new File(['1'], 'a.txt'), new File(['22'], 'a.txt'), new File(['333'], 'b.md')];
    const task = shareBatchTask(files, 'Share 3 files', { slug: 'mine', password: 'pw', expires_in: 24, max_views: 0 }, 'cfg');
    expect(task).toMatchObject({ type: 'upload', label: 'Share 3 files' });
    expect(task.payload).toEqual({
      kind: 'shareBatchUpload',
      files: [
        { file: files[0], relativePath: 'a.txt' },
        { file: files[1], relativePath: 'a.txt (2)' },
        { file: files[2], relativePath: 'b.md' },
      ],
      count: 3,
      fromFolder: false,
      options: { password: 'pw', expires_in: 24, max_views: 0 },
      storageConfigId: 'cfg',
    });
  });
});

describe('a share batch after a reload', () => {
  const batchFiles = [
    { relativePath: 'a.txt', name: 'a.txt', size: 10, lastModified: 1, type: 'text/plain' },
    { relativePath: 'b.txt', name: 'b.txt', size: 30, lastModified: 1, type: 'text/plain' },
  ];
  const base: JournalTask = {
    taskId: 's1',
    kind: 'shareBatch',
    label: 'Share 2 files',
    batchFiles,
    mimetype: 'application/octet-stream',
    storageConfigId: 'cfg',
    options: { expires_in: 24, max_views: 0 },
    partSize: 0,
    partCount: 0,
    size: 40,
    parts: {},
    done: ['b.txt'],
    status: 'running',
    queuedAt: 1,
  };
  const restored = (task: JournalTask) => {
    const actor = createActor(taskMachine, { input: taskFromJournal(task) }).start();
    const snapshot = actor.getSnapshot();
    actor.stop();
    return snapshot;
  };

  it('unfinished, waits for its files, with the bytes shared so far', () => {
    const waiting = restored(base);
    expect(waiting.value).toBe('awaitingFile');
    expect(waiting.context.payload).toEqual({ kind: 'shareBatchUpload', count: 2, fromFolder: false, options: base.options, storageConfigId: 'cfg', resume: true });
    expect(waiting.context.progress).toMatchObject({ loaded: 30, total: 40, percent: 75 });
  });

  it('finished, comes back with its links; partly done, with its failures too', () => {
    const share = (slug: string) => ({ id: slug, slug, filename: `${slug}.txt` }) as FileShare;
    const whole: ShareBatchResult = { succeeded: ['a.txt', 'b.txt'], skipped: [], failed: [], shares: [{ path: 'a.txt', share: share('a') }, { path: 'b.txt', share: share('b') }] };
    const finished = restored({ ...base, status: 'completed', result: whole });
    expect(finished.value).toBe('completed');
    expect(finished.context.result).toEqual(whole);
    expect(finished.context.counts).toEqual({ success: 2, skipped: 0, failed: 0 });

    const partly: ShareBatchResult = { succeeded: ['b.txt'], skipped: [], failed: [{ path: 'a.txt', error: { code: 'network' } }], shares: [{ path: 'b.txt', share: share('b') }] };
    const partial = restored({ ...base, status: 'completed', result: partly });
    expect(partial.value).toBe('partial');
    expect(partial.context.counts).toEqual({ success: 1, skipped: 0, failed: 1 });
  });
});
