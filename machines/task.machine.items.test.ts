import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import type { FsItemsResult, TaskType, TransferError } from '../contract/transfer';
import { taskMachine, type RunnerInput, type TaskEvent } from './task.machine';

/**
 * A fake engine for the explorer's tasks over many items (copy, delete, download): it works through the items one
 * per tick, reporting each as the real engine does, and answers the per-item result. An item in `failing` fails
 * that many times before it works. What the app's runner does on a retry is done here too: only the failed items
 * of `previous`, when the machine hands it one. `stepAfterStop` settles when a tick comes to a stopped run: where it
 * would have worked the next item.
 */
function fakeEngine(failing: Record<string, number> = {}) {
  const runs: { items: string[]; previous?: FsItemsResult }[] = [];
  /** Items the engine finished, in order, over all runs; and how often a run was stopped before its end. */
  const worked: string[] = [];
  let stops = 0;
  let stoppedStepRan!: () => void;
  const stepAfterStop = new Promise<void>((resolve) => (stoppedStepRan = resolve));
  const left = { ...failing };
  const runTask = fromCallback<TaskEvent, RunnerInput>(({ input, sendBack }) => {
    const previous = input.previous as FsItemsResult | undefined;
    const items = previous ? previous.failed.map((item) => item.path) : input.payload.kind === 'fsDelete' ? input.payload.paths : [];
    runs.push({ items, ...(previous && { previous }) });
    const result: FsItemsResult = { succeeded: [], skipped: [], failed: [] };
    let next = 0;
    let stopped = false;
    const step = () => {
      if (stopped) return stoppedStepRan();
      const item = items[next++];
      if (item === undefined) return sendBack({ type: 'engine.done', result });
      sendBack({ type: 'engine.item', currentFile: item, counts: { success: result.succeeded.length, skipped: 0, failed: result.failed.length } });
      if ((left[item] ?? 0) > 0) {
        left[item]! -= 1;
        result.failed.push({ path: item, error: { code: 'upload_failed', status: 500 } });
      } else {
        result.succeeded.push(item);
        worked.push(item);
      }
      sendBack({ type: 'engine.progress', progress: { loaded: next, total: items.length, percent: Math.floor((next * 100) / items.length), speed: 0, secondsLeft: null } });
      setTimeout(step, 1);
    };
    setTimeout(step, 1);
    return () => {
      if (next <= items.length) stops += 1;
      stopped = true;
    };
  });
  return { runTask, runs, worked, stops: () => stops, stepAfterStop };
}

const items = ['/local/a.txt', '/local/b.txt', '/local/c.txt', '/local/d.txt', '/local/e.txt'];

function startTask(type: TaskType, engine: ReturnType<typeof fakeEngine>) {
  return createActor(taskMachine.provide({ actors: { runTask: engine.runTask } }), {
    input: { id: `${type}-1`, type, label: `${type} task`, payload: { kind: 'fsDelete', paths: items } },
  }).start();
}

describe.each(['copy', 'delete', 'download'] as const)('a %s task over many items', (type) => {
  it('cancelled mid-way stops the engine at once and ignores what it still says', async () => {
    const engine = fakeEngine();
    const actor = startTask(type, engine);
    await waitFor(actor, (state) => (state.context.counts?.success ?? 0) >= 2);
    actor.send({ type: 'task.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(engine.stops()).toBe(1);
    const workedAtCancel = engine.worked.length;
    await engine.stepAfterStop;
    expect(engine.worked).toHaveLength(workedAtCancel);
    expect(workedAtCancel).toBeLessThan(items.length);
    expect(actor.getSnapshot().value).toBe('cancelled');
  });

  it('one failing item never stops the others: the task ends partial, naming it', async () => {
    const engine = fakeEngine({ '/local/c.txt': 1 });
    const actor = startTask(type, engine);
    const ended = await waitFor(actor, (state) => state.hasTag('done'));
    expect(ended.value).toBe('partial');
    expect(ended.hasTag('error')).toBe(true);
    expect(ended.context.counts).toEqual({ success: 4, skipped: 0, failed: 1 });
    expect(engine.worked).toEqual(['/local/a.txt', '/local/b.txt', '/local/d.txt', '/local/e.txt']);
    expect((ended.context.result as FsItemsResult).failed.map((item) => item.path)).toEqual(['/local/c.txt']);
  });
});

describe.each(['copy', 'delete'] as const)('retrying a partial %s task', (type) => {
  it('runs only the failed item, and the task ends with the counts of both runs', async () => {
    const engine = fakeEngine({ '/local/b.txt': 1, '/local/d.txt': 2 });
    const actor = startTask(type, engine);
    await waitFor(actor, (state) => state.hasTag('done'));
    expect(actor.getSnapshot().context.counts).toEqual({ success: 3, skipped: 0, failed: 2 });

    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().context.counts).toBeUndefined();
    const second = await waitFor(actor, (state) => state.hasTag('done'));
    expect(engine.runs[1]?.items).toEqual(['/local/b.txt', '/local/d.txt']);
    // d.txt fails once more: the task stays partial, its earlier successes still counted.
    expect(second.value).toBe('partial');
    expect(second.context.counts).toEqual({ success: 4, skipped: 0, failed: 1 });

    actor.send({ type: 'task.retry' });
    const third = await waitFor(actor, (state) => state.hasTag('done'));
    expect(engine.runs[2]?.items).toEqual(['/local/d.txt']);
    expect(third.value).toBe('completed');
    expect(third.context.counts).toEqual({ success: 5, skipped: 0, failed: 0 });
    expect([...engine.worked].sort()).toEqual(items);
    expect((third.context.result as FsItemsResult).succeeded).toHaveLength(5);
  });

  it('a retry after a failure of the whole run keeps what the runs before achieved', async () => {
    const engine = fakeEngine({ '/local/e.txt': 1 });
    const actor = startTask(type, engine);
    await waitFor(actor, (state) => state.hasTag('done'));
    actor.send({ type: 'task.retry' });
    // The second run loses the network: the task fails, and its retry still runs only e.txt.
    const error: TransferError = { code: 'network' };
    actor.send({ type: 'engine.failed', error });
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'task.retry' });
    await waitFor(actor, (state) => state.hasTag('done'));
    expect(engine.runs.map((run) => run.items)).toEqual([items, ['/local/e.txt'], ['/local/e.txt']]);
    expect(actor.getSnapshot().context.counts).toEqual({ success: 5, skipped: 0, failed: 0 });
  });
});

describe('retrying a download', () => {
  it('makes the whole zip again: a zip cannot take only the files that failed', async () => {
    const engine = fakeEngine({ '/local/c.txt': 1 });
    const actor = startTask('download', engine);
    await waitFor(actor, (state) => state.hasTag('done'));
    actor.send({ type: 'task.retry' });
    const ended = await waitFor(actor, (state) => state.hasTag('done'));
    expect(engine.runs[1]).toEqual({ items });
    expect(ended.value).toBe('completed');
    expect(ended.context.counts).toEqual({ success: 5, skipped: 0, failed: 0 });
  });
});

describe('retrying a cancelled copy', () => {
  it('runs every item again: the run left no per-item result, and the server skips what it copied', async () => {
    const engine = fakeEngine();
    const actor = startTask('copy', engine);
    await waitFor(actor, (state) => (state.context.counts?.success ?? 0) >= 1);
    actor.send({ type: 'task.cancel' });
    actor.send({ type: 'task.retry' });
    await waitFor(actor, (state) => state.hasTag('done'));
    expect(engine.runs[1]).toEqual({ items });
  });
});
