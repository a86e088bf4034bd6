import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { NO_SHARE_OPTIONS, type FsItemsResult, type JournalTask } from '../../contract/transfer';
import { taskMachine } from '../../machines/task.machine';
import { taskFromJournal } from './tasks';

const base = { mimetype: '', options: NO_SHARE_OPTIONS, partSize: 0, partCount: 0, size: 0, parts: {}, queuedAt: 1 };
const restoredState = (task: JournalTask) => {
  const actor = createActor(taskMachine, { input: taskFromJournal(task) }).start();
  const snapshot = actor.getSnapshot();
  actor.stop();
  return snapshot;
};

describe('the task list after a reload is the list before it', () => {
  it('a copy that ended partly done comes back partly done, with its counts, failures and what a retry needs', () => {
    const result: FsItemsResult = { succeeded: ['/local/a.txt'], skipped: ['/local/b.txt'], failed: [{ path: '/local/c.txt', error: { code: 'network' } }] };
    const payload = { kind: 'fsCopy' as const, items: [{ sourcePath: '/local/', targetPath: '/s3/' }], operation: 'copy' as const };
    const task: JournalTask = {
      ...base,
      taskId: 'c1',
      kind: 'fsItems',
      label: 'Copy to /s3/',
      itemsTask: { taskType: 'copy', label: 'Copy to /s3/', payload },
      status: 'completed',
      result,
    };
    const snapshot = restoredState(task);
    expect(snapshot.value).toBe('partial');
    expect(snapshot.context).toMatchObject({ type: 'copy', label: 'Copy to /s3/', payload, counts: { success: 1, skipped: 1, failed: 1 }, result });
  });

  it('a delete the reload cut off comes back cancelled, so that its retry runs it', () => {
    const task: JournalTask = { ...base, taskId: 'd1', kind: 'fsItems', label: '3 items', itemsTask: { taskType: 'delete', label: '3 items', payload: { kind: 'fsDelete', paths: ['/local/x'] } }, status: 'queued' };
    expect(restoredState(task).value).toBe('cancelled');
  });

  it('a batch upload comes back as its folder’s task: finished with its counts, or waiting for the files again', () => {
    const batchFiles = [
      { relativePath: 'pics/a.jpg', name: 'a.jpg', size: 10, lastModified: 1, type: 'image/jpeg' },
      { relativePath: 'pics/b.jpg', name: 'b.jpg', size: 30, lastModified: 1, type: 'image/jpeg' },
    ];
    const batch: JournalTask = { ...base, size: 40, taskId: 'b1', kind: 'fsBatch', label: 'Upload 2 files to /local/', batchFiles, fsFolder: '/local/', done: ['pics/b.jpg'], status: 'running' };
    const waiting = restoredState(batch);
    expect(waiting.value).toBe('awaitingFile');
    expect(waiting.context.payload).toMatchObject({ kind: 'fsBatchUpload', folder: '/local/', count: 2, fromFolder: true, resume: true });
    expect(waiting.context.progress).toMatchObject({ loaded: 30, total: 40, percent: 75 });

    const finished = restoredState({ ...batch, status: 'completed', done: ['pics/a.jpg', 'pics/b.jpg'], result: { succeeded: ['pics/a.jpg', 'pics/b.jpg'], skipped: [], failed: [] } });
    expect(finished.value).toBe('completed');
    expect(finished.context.counts).toEqual({ success: 2, skipped: 0, failed: 0 });
  });
});
