import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import type { FsConflict, FsItemsResult, TaskType } from '../contract/transfer';
import { taskMachine, type RunnerInput, type TaskEvent } from './task.machine';

/**
 * A runner that answers each run with the next of `results` at once, and keeps what it was given: the machine's
 * part of the conflict flow is what it hands the next run, and where each answer takes the task.
 */
function scriptedRunner(results: FsItemsResult[]) {
  const inputs: RunnerInput[] = [];
  const runTask = fromCallback<TaskEvent, RunnerInput>(({ input, sendBack }) => {
    inputs.push(input);
    const result = results[inputs.length - 1];
    setTimeout(() => sendBack(result ? { type: 'engine.done', result } : { type: 'engine.failed', error: { code: 'unknown' } }), 1);
    return () => {};
  });
  return { runTask, inputs };
}

const start = (type: TaskType, runner: ReturnType<typeof scriptedRunner>) =>
  createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), { input: { id: 't1', type, label: 'photos', payload: { kind: 'fsCopy', items: [] } } }).start();

const conflicts: FsConflict[] = [
  { path: '/a/same.txt', targetPath: '/b/same.txt', identical: true },
  { path: '/a/changed.txt', targetPath: '/b/changed.txt', identical: false },
];

describe('a task whose run finds names taken', () => {
  it('waits for the user, then runs again with the decision and the conflicts, joining both runs', async () => {
    const runner = scriptedRunner([
      { succeeded: ['/b/new.txt'], skipped: [], failed: [], conflicts },
      { succeeded: ['/b/changed (1).txt'], skipped: ['/b/same.txt'], failed: [], renamed: ['/b/changed (1).txt'] },
    ]);
    const actor = start('copy', runner);
    await waitFor(actor, (state) => state.matches('awaitingDecision'));
    expect(actor.getSnapshot().hasTag('needsDecision')).toBe(true);
    expect(actor.getSnapshot().context.counts).toEqual({ success: 1, skipped: 0, failed: 0, conflicts: 2 });

    actor.send({ type: 'task.resolve', decision: { choice: 'rename', skipIdentical: true } });
    await waitFor(actor, (state) => state.matches('completed'));
    expect(runner.inputs[1]?.resolution).toEqual({ decision: { choice: 'rename', skipIdentical: true }, conflicts });
    expect(actor.getSnapshot().context.counts).toEqual({ success: 2, skipped: 1, failed: 0, renamed: 1 });
  });

  it('a cancel while it waits ends the task, and nothing runs again', async () => {
    const runner = scriptedRunner([{ succeeded: [], skipped: [], failed: [], conflicts }]);
    const actor = start('move', runner);
    await waitFor(actor, (state) => state.matches('awaitingDecision'));
    actor.send({ type: 'task.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(runner.inputs).toHaveLength(1);
  });

  it('an upload whose files are gone after a reload waits for them before the decided run', async () => {
    const runner = scriptedRunner([]);
    const actor = createActor(taskMachine.provide({ actors: { runTask: runner.runTask } }), {
      input: {
        id: 'u1',
        type: 'upload',
        label: 'photos',
        payload: { kind: 'fsBatchUpload', folder: '/local/', count: 2, fromFolder: true, resume: true },
        restored: { status: 'awaitingDecision', result: { succeeded: [], skipped: [], failed: [], conflicts } },
      },
    }).start();
    expect(actor.getSnapshot().value).toBe('awaitingDecision');
    actor.send({ type: 'task.resolve', decision: { choice: 'skip', skipIdentical: true } });
    expect(actor.getSnapshot().value).toBe('awaitingFile');
    expect(runner.inputs).toHaveLength(0);
  });
});

describe('“Retry failed” after a partly done run', () => {
  it('retries only failures another try may mend, and keeps the others failed', async () => {
    const runner = scriptedRunner([
      {
        succeeded: ['/b/1'],
        skipped: [],
        failed: [
          { path: '/a/busy', error: { code: 'upload_failed', status: 503 } },
          { path: '/a/long', error: { code: 'unknown', reason: 'validation', serverMessage: 'Name too long' } },
        ],
      },
      { succeeded: ['/b/busy'], skipped: [], failed: [] },
    ]);
    const actor = start('copy', runner);
    await waitFor(actor, (state) => state.matches('partial'));
    actor.send({ type: 'task.retry' });
    await waitFor(actor, (state) => state.matches('partial') && runner.inputs.length === 2);
    const result = actor.getSnapshot().context.result as FsItemsResult;
    expect(result.failed.map((item) => item.path)).toEqual(['/a/long']);
    expect(result.succeeded).toEqual(['/b/1', '/b/busy']);
  });

  it('offers no retry when every failure would fail the same way again', async () => {
    const runner = scriptedRunner([{ succeeded: [], skipped: [], failed: [{ path: '/a/x', error: { code: 'too_large', status: 413 } }] }]);
    const actor = start('copy', runner);
    await waitFor(actor, (state) => state.matches('partial'));
    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('partial');
    expect(runner.inputs).toHaveLength(1);
  });
});
