import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { BatchFile, FsItemsResult } from '../contract/transfer';
import { taskMachine, type RunnerInput, type TaskEvent, type TaskInput } from './task.machine';

/**
 * A runner that behaves as the engine does for a batch upload: it remembers what was acknowledged (its journal),
 * sends only the rest, and fails the files it is told to. `step` sends the next `count` files of the run.
 */
function fakeBatchEngine(failing: Set<string>) {
  const acknowledged = new Set<string>();
  const sentPerRun: string[][] = [];
  const log: string[] = [];
  let step: (count?: number) => void = () => undefined;
  const runTask = fromCallback<TaskEvent, RunnerInput>(({ sendBack, input }) => {
    const files = (input.payload as { files?: BatchFile[] }).files ?? [];
    const queue = files.filter((file) => !acknowledged.has(file.relativePath));
    const sent: string[] = [];
    sentPerRun.push(sent);
    log.push('start');
    const failed: FsItemsResult['failed'] = [];
    step = (count = queue.length) => {
      for (const file of queue.splice(0, count)) {
        sent.push(file.relativePath);
        if (failing.has(file.relativePath)) failed.push({ path: file.relativePath, error: { code: 'unknown', serverMessage: 'refused' } });
        else acknowledged.add(file.relativePath);
      }
      const counts = { success: acknowledged.size, skipped: 0, failed: failed.length };
      sendBack({ type: 'engine.item', currentFile: sent.at(-1) ?? '', counts });
      if (queue.length === 0) sendBack({ type: 'engine.done', result: { succeeded: [...acknowledged], skipped: [], failed } satisfies FsItemsResult });
    };
    return () => log.push('stop');
  });
  return { runTask, sentPerRun, log, step: (count?: number) => step(count) };
}

const files: BatchFile[] = Array.from({ length: 10 }, (_, index) => ({ relativePath: `batch/f${index}.txt`, file: new File(['x'], `f${index}.txt`) }));
const batch = (payload: Record<string, unknown> = {}): TaskInput => ({
  id: 'b1',
  type: 'upload',
  label: 'Upload 10 files to /local/',
  payload: { kind: 'fsBatchUpload', files, folder: '/local/', count: files.length, fromFolder: true, ...payload },
});
const start = (engine: ReturnType<typeof fakeBatchEngine>, input = batch()) =>
  createActor(taskMachine.provide({ actors: { runTask: engine.runTask } }), { input }).start();

describe('a batch upload task', () => {
  it('ends partly done with the counts, and “retry failed” sends only the files that failed', () => {
    const failing = new Set(['batch/f2.txt', 'batch/f5.txt', 'batch/f9.txt']);
    const engine = fakeBatchEngine(failing);
    const actor = start(engine);
    engine.step();
    expect(actor.getSnapshot().value).toBe('partial');
    expect(actor.getSnapshot().context.counts).toEqual({ success: 7, skipped: 0, failed: 3 });
    expect((actor.getSnapshot().context.result as FsItemsResult).failed.map((item) => item.path)).toEqual([...failing]);

    failing.clear(); // the server takes them now
    actor.send({ type: 'task.retry' });
    engine.step();
    expect(engine.sentPerRun[1]).toEqual(['batch/f2.txt', 'batch/f5.txt', 'batch/f9.txt']);
    expect(actor.getSnapshot().value).toBe('completed');
    expect(actor.getSnapshot().context.counts).toEqual({ success: 10, skipped: 0, failed: 0 });
  });

  it('pauses (the runner stops at once) and resumes with the files not yet acknowledged', () => {
    const engine = fakeBatchEngine(new Set());
    const actor = start(engine);
    engine.step(4);
    actor.send({ type: 'task.pause' });
    expect(actor.getSnapshot().value).toBe('paused');
    expect(actor.getSnapshot().hasTag('paused')).toBe(true);
    expect(actor.getSnapshot().context.counts).toEqual({ success: 4, skipped: 0, failed: 0 });
    expect(engine.log).toEqual(['start', 'stop']);
    actor.send({ type: 'task.resume' });
    engine.step();
    expect(engine.sentPerRun[1]).toEqual(files.slice(4).map((file) => file.relativePath));
    expect(actor.getSnapshot().value).toBe('completed');
    expect(actor.getSnapshot().context.counts?.success).toBe(10);
  });

  it('cancels while running or paused; a single-file upload cannot be paused', () => {
    const engine = fakeBatchEngine(new Set());
    const actor = start(engine);
    actor.send({ type: 'task.pause' });
    actor.send({ type: 'task.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(engine.log).toEqual(['start', 'stop']);

    const single = start(fakeBatchEngine(new Set()), { id: 's1', type: 'upload', label: 'a.txt', payload: { kind: 'fsUpload', file: files[0]!.file, folder: '/local/' } });
    single.send({ type: 'task.pause' });
    expect(single.getSnapshot().value).toBe('running');
  });

  it('after a reload waits for the files, then resumes the journal’s batch with them', () => {
    const engine = fakeBatchEngine(new Set());
    const restored = batch({ files: undefined, resume: true });
    const actor = start(engine, { ...restored, restored: { status: 'awaitingFile' } });
    expect(actor.getSnapshot().value).toBe('awaitingFile');
    expect(actor.getSnapshot().hasTag('needsFile')).toBe(true);
    actor.send({ type: 'task.filesProvided', files });
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().context.payload).toMatchObject({ files, resume: true });
  });

  it('comes back from the journal partly done, with its counts and failed files', () => {
    const result: FsItemsResult = { succeeded: ['batch/f0.txt'], skipped: [], failed: [{ path: 'batch/f1.txt', error: { code: 'unknown' } }] };
    const actor = start(fakeBatchEngine(new Set()), { ...batch({ files: undefined }), restored: { status: 'partial', result } });
    expect(actor.getSnapshot().value).toBe('partial');
    expect(actor.getSnapshot().context.counts).toEqual({ success: 1, skipped: 0, failed: 1 });
    // Its retry needs the files again first.
    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('awaitingFile');
    actor.send({ type: 'task.filesProvided', files });
    expect(actor.getSnapshot().value).toBe('running');
  });
});
