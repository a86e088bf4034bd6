import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { FileShare } from '../contract/files';
import type { BatchFile, ShareBatchEntry, ShareBatchResult } from '../contract/transfer';
import { taskMachine, type RunnerInput, type TaskEvent, type TaskInput } from './task.machine';

const shareOf = (path: string) => ({ id: `id-${path}`, slug: `s-${path}`, filename: path }) as FileShare;

/**
 * A runner that behaves as the engine does for files shared together: its journal remembers each file's share, a
 * run sends only the files without one, and answers the whole batch's shares; the files in `failing` meet a busy
 * server (a failure worth retrying).
 */
function fakeShareEngine(failing: Set<string>) {
  const journal = new Map<string, ShareBatchEntry>();
  const sentPerRun: string[][] = [];
  const runTask = fromCallback<TaskEvent, RunnerInput>(({ sendBack, input }) => {
    const files = (input.payload as { files?: BatchFile[] }).files ?? [];
    const sent: string[] = [];
    sentPerRun.push(sent);
    const failed: ShareBatchResult['failed'] = [];
    for (const { relativePath } of files.filter((file) => !journal.has(file.relativePath))) {
      sent.push(relativePath);
      if (failing.has(relativePath)) failed.push({ path: relativePath, error: { code: 'presign_failed', status: 503, serverMessage: 'Busy' } });
      else journal.set(relativePath, { path: relativePath, share: shareOf(relativePath) });
      sendBack({ type: 'engine.item', currentFile: relativePath, counts: { success: journal.size, skipped: 0, failed: failed.length } });
    }
    const shares = files.flatMap((file) => journal.get(file.relativePath) ?? []);
    const result: ShareBatchResult = { succeeded: shares.map((entry) => entry.path), skipped: [], failed, shares };
    sendBack({ type: 'engine.done', result });
    return () => undefined;
  });
  return { runTask, sentPerRun };
}

const files: BatchFile[] = Array.from({ length: 5 }, (_, index) => ({ relativePath: `f${index}.txt`, file: new File(['x'], `f${index}.txt`) }));
const batch = (payload: Record<string, unknown> = {}): TaskInput => ({
  id: 's1',
  type: 'upload',
  label: 'Share 5 files',
  payload: { kind: 'shareBatchUpload', files, count: files.length, fromFolder: false, options: { expires_in: 0, max_views: 0 }, ...payload },
});

describe('files shared together', () => {
  it('end partly done with counts and the shares of those done; “retry failed” sends only the refused file', () => {
    const failing = new Set(['f2.txt']);
    const engine = fakeShareEngine(failing);
    const actor = createActor(taskMachine.provide({ actors: { runTask: engine.runTask } }), { input: batch() }).start();
    expect(actor.getSnapshot().value).toBe('partial');
    expect(actor.getSnapshot().context.counts).toEqual({ success: 4, skipped: 0, failed: 1 });
    const partly = actor.getSnapshot().context.result as ShareBatchResult;
    expect(partly.shares.map((entry) => entry.path)).toEqual(['f0.txt', 'f1.txt', 'f3.txt', 'f4.txt']);
    expect(partly.failed.map((item) => item.path)).toEqual(['f2.txt']);

    failing.clear();
    actor.send({ type: 'task.retry' });
    expect(engine.sentPerRun[1]).toEqual(['f2.txt']);
    expect(actor.getSnapshot().value).toBe('completed');
    expect(actor.getSnapshot().context.counts).toEqual({ success: 5, skipped: 0, failed: 0 });
    expect((actor.getSnapshot().context.result as ShareBatchResult).shares.map((entry) => entry.share.slug)).toEqual(files.map((file) => `s-${file.relativePath}`));
  });

  it('pause and resume as a mount batch does', () => {
    const runTask = fromCallback<TaskEvent, RunnerInput>(() => () => undefined);
    const actor = createActor(taskMachine.provide({ actors: { runTask } }), { input: batch() }).start();
    actor.send({ type: 'task.pause' });
    expect(actor.getSnapshot().value).toBe('paused');
    actor.send({ type: 'task.resume' });
    expect(actor.getSnapshot().value).toBe('running');
  });

  it('after a reload a partly done batch keeps its links, and its retry waits for the files first', () => {
    const result: ShareBatchResult = { succeeded: ['f0.txt'], skipped: [], failed: [{ path: 'f1.txt', error: { code: 'network' } }], shares: [{ path: 'f0.txt', share: shareOf('f0.txt') }] };
    const engine = fakeShareEngine(new Set());
    const actor = createActor(taskMachine.provide({ actors: { runTask: engine.runTask } }), {
      input: { ...batch({ files: undefined, resume: true }), restored: { status: 'partial', result } },
    }).start();
    expect(actor.getSnapshot().value).toBe('partial');
    expect(actor.getSnapshot().context.result).toEqual(result);
    expect(actor.getSnapshot().context.counts).toEqual({ success: 1, skipped: 0, failed: 1 });
    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('awaitingFile');
    actor.send({ type: 'task.filesProvided', files });
    expect(actor.getSnapshot().value).toBe('completed');
    expect(actor.getSnapshot().context.payload).toMatchObject({ kind: 'shareBatchUpload', files, resume: true });
  });
});
