import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { TransferError } from '../contract/transfer';
import { taskMachine, type TaskEvent, type TaskInput } from './task.machine';
import { taskManagerMachine } from './task-manager.machine';

/** A runner the test drives by hand; records starts and stops (a stop is how a cancel reaches the engine). */
function fakeRunner() {
  const log: string[] = [];
  let report: ((event: TaskEvent) => void) | undefined;
  const runTask = fromCallback<TaskEvent, TaskInput>(({ sendBack, input }) => {
    log.push(`start ${input.id}`);
    report = sendBack;
    return () => log.push(`stop ${input.id}`);
  });
  return { runTask, log, report: (event: TaskEvent) => report?.(event) };
}

const input: TaskInput = { id: 't1', type: 'upload', label: 'a.txt', payload: { kind: 'shareUpload', file: new File(['x'], 'a.txt'), mimetype: 'text/plain', options: { expires_in: 0, max_views: 0 } } };
const progress = { loaded: 50, total: 100, percent: 50, speed: 10, secondsLeft: 5 };

describe('task machine', () => {
  it('runs, follows stages and progress, and completes with the result', () => {
    const runner = fakeRunner();
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), { input }).start();
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    runner.report({ type: 'engine.stage', stage: 'uploading' });
    runner.report({ type: 'engine.progress', progress });
    expect(actor.getSnapshot().context).toMatchObject({ stage: 'uploading', progress });
    runner.report({ type: 'engine.done', result: { slug: 'abc' } });
    expect(actor.getSnapshot().value).toBe('completed');
    expect(actor.getSnapshot().context.result).toEqual({ slug: 'abc' });
    expect(runner.log).toEqual(['start t1', 'stop t1']);
  });

  it('cancel stops the runner at once', () => {
    const runner = fakeRunner();
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), { input }).start();
    actor.send({ type: 'task.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(runner.log).toEqual(['start t1', 'stop t1']);
  });

  it('keeps the error of a failure, and retry runs again from zero', () => {
    const runner = fakeRunner();
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), { input }).start();
    runner.report({ type: 'engine.progress', progress });
    const error: TransferError = { code: 'upload_failed', status: 500 };
    runner.report({ type: 'engine.failed', error });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.error).toEqual(error);
    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().context.error).toBeUndefined();
    expect(actor.getSnapshot().context.progress.percent).toBe(0);
    expect(runner.log).toEqual(['start t1', 'stop t1', 'start t1']);
  });

  it('a runner reporting cancelled ends as cancelled, not failed', () => {
    const runner = fakeRunner();
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), { input }).start();
    runner.report({ type: 'engine.failed', error: { code: 'cancelled' } });
    expect(actor.getSnapshot().value).toBe('cancelled');
  });
});

describe('restored tasks', () => {
  it('an upload rebuilt after a reload waits for its file, then runs with it', () => {
    const runner = fakeRunner();
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), {
      input: { ...input, payload: { kind: 'shareUpload', mimetype: 'text/plain', options: { expires_in: 0, max_views: 0 } }, restored: { status: 'awaitingFile' } },
    }).start();
    expect(actor.getSnapshot().value).toBe('awaitingFile');
    expect(actor.getSnapshot().hasTag('needsFile')).toBe(true);
    expect(runner.log).toEqual([]);
    const file = new File(['x'], 'a.txt');
    actor.send({ type: 'task.fileProvided', file });
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().context.payload).toMatchObject({ file, resume: true });
  });

  it('finished tasks come back in their final state with their result or error', () => {
    const done = createActor(taskMachine, { input: { ...input, restored: { status: 'completed', result: { slug: 's' } } } }).start();
    expect(done.getSnapshot().value).toBe('completed');
    expect(done.getSnapshot().context.result).toEqual({ slug: 's' });
    const failed = createActor(taskMachine, { input: { ...input, payload: { kind: 'fsUpload', folder: '/local/' }, restored: { status: 'failed', error: { code: 'network' } } } }).start();
    failed.send({ type: 'task.retry' });
    expect(failed.getSnapshot().value).toBe('awaitingFile');
  });

  it('a run with failed items ends as partial, with its counts', () => {
    const runner = fakeRunner();
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), { input: { ...input, type: 'copy' } }).start();
    runner.report({ type: 'engine.item', currentFile: '/a/b.txt', counts: { success: 2, skipped: 1, failed: 1 } });
    expect(actor.getSnapshot().context.currentFile).toBe('/a/b.txt');
    runner.report({ type: 'engine.done', result: null });
    expect(actor.getSnapshot().value).toBe('partial');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
  });
});

describe('task manager', () => {
  it('spawns tasks, removes only finished ones, clears the finished, and has the engine forget them', () => {
    const runner = fakeRunner();
    const forgotten: string[] = [];
    const manager = createActor(
      taskManagerMachine.provide({
        actors: { task: taskMachine.provide({ actors: { runTask: runner.runTask } }) },
        actions: { forgetTask: (_, { id }) => forgotten.push(id) },
      }),
      { input: { partsPerUpload: 3 } },
    ).start();
    manager.send({ type: 'tasks.add', task: { ...input, id: 'a' } });
    manager.send({ type: 'tasks.add', task: { ...input, id: 'b' } });
    const [a, b] = manager.getSnapshot().context.tasks;
    expect(manager.getSnapshot().context.tasks.map((task) => task.id)).toEqual(['a', 'b']);

    manager.send({ type: 'task.remove', id: 'a' });
    expect(manager.getSnapshot().context.tasks).toHaveLength(2);

    a?.ref.send({ type: 'task.cancel' });
    manager.send({ type: 'task.remove', id: 'a' });
    expect(manager.getSnapshot().context.tasks.map((task) => task.id)).toEqual(['b']);

    b?.ref.send({ type: 'task.cancel' });
    manager.send({ type: 'tasks.add', task: { ...input, id: 'c' } });
    manager.send({ type: 'tasks.clearFinished' });
    expect(manager.getSnapshot().context.tasks.map((task) => task.id)).toEqual(['c']);
    expect(forgotten).toEqual(['a', 'b']);
  });

  it('keeps a choice of parts per upload from 1 to 6 and hands it on, and ignores any other', () => {
    const applied: number[] = [];
    const manager = createActor(
      taskManagerMachine.provide({ actions: { applyPartsPerUpload: (_, { value }) => applied.push(value) } }),
      { input: { partsPerUpload: 3 } },
    ).start();
    expect(manager.getSnapshot().context.partsPerUpload).toBe(3);
    manager.send({ type: 'tasks.partsPerUpload', value: 1 });
    manager.send({ type: 'tasks.partsPerUpload', value: 7 });
    manager.send({ type: 'tasks.partsPerUpload', value: 2.5 });
    expect(manager.getSnapshot().context.partsPerUpload).toBe(1);
    expect(applied).toEqual([1]);
  });

  it('restores journal tasks ahead of new ones, once', () => {
    const manager = createActor(taskManagerMachine, { input: { partsPerUpload: 3 } }).start();
    manager.send({ type: 'tasks.add', task: { ...input, id: 'new' } });
    const restored = { ...input, id: 'old', restored: { status: 'completed' as const } };
    manager.send({ type: 'tasks.restore', tasks: [restored] });
    manager.send({ type: 'tasks.restore', tasks: [restored] });
    expect(manager.getSnapshot().context.tasks.map((task) => task.id)).toEqual(['old', 'new']);
  });
});
