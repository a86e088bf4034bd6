import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { ServerJobResult, TaskPayload } from '../contract/transfer';
import type { Job } from '../contract/jobs';
import { retryableFailures, taskMachine, type RunnerInput, type TaskEvent, type TaskInput } from './task.machine';

/** A runner driven by hand, and the commands the machine tells the server. */
function harness(task: TaskInput) {
  const starts: RunnerInput[] = [];
  const commands: string[] = [];
  let report: ((event: TaskEvent) => void) | undefined;
  const runTask = fromCallback<TaskEvent, RunnerInput>(({ sendBack, input }) => {
    starts.push(input);
    report = sendBack;
    return () => undefined;
  });
  const machine = taskMachine.provide({
    actors: { runTask },
    actions: { commandServer: (_, { payload, command }: { payload: TaskPayload; command: string }) => void commands.push(`${payload.kind} ${command}`) },
  });
  const actor = createActor(machine, { input: task }).start();
  return { actor, starts, commands, report: (event: TaskEvent) => report?.(event) };
}

const jobTask: TaskInput = { id: 'j1', type: 'copy', label: 'Copy to /s3/', payload: { kind: 'serverJob', jobId: 'j1' } };

const endedJob = { id: 'j1', status: 'partial' } as Job;
const resultWith = (reason: string): ServerJobResult => ({ job: endedJob, failed: [{ path: '/local/a.bin', error: { code: 'unknown', reason } }] });

describe('task machine: server jobs', () => {
  it('tells the server of a pause and a cancel; resume runs the task again', () => {
    const { actor, starts, commands } = harness(jobTask);
    actor.send({ type: 'task.pause' });
    expect(actor.getSnapshot().value).toBe('paused');
    actor.send({ type: 'task.resume' });
    expect(actor.getSnapshot().value).toBe('running');
    expect(starts).toHaveLength(2);
    actor.send({ type: 'task.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(commands).toEqual(['serverJob pause', 'serverJob cancel']);
  });

  it('offers pause for a running job, not for a single upload', () => {
    expect(harness(jobTask).actor.getSnapshot().can({ type: 'task.pause' })).toBe(true);
    const upload = harness({ ...jobTask, type: 'upload', payload: { kind: 'shareUpload', file: new File(['x'], 'a.txt'), mimetype: 'text/plain', options: { expires_in: 0, max_views: 0 } } });
    expect(upload.actor.getSnapshot().can({ type: 'task.pause' })).toBe(false);
  });

  it('tells the server nothing for a task the engine runs', () => {
    const { actor, commands } = harness({ ...jobTask, payload: { kind: 'fsDelete', paths: ['/local/a'] } });
    actor.send({ type: 'task.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    // The action runs for every task; the app's implementation acts on server jobs only.
    expect(commands).toEqual(['fsDelete cancel']);
  });

  it('ends partial on a job with failures, and offers no retry for failures another try cannot mend', () => {
    const { actor, report, starts } = harness(jobTask);
    report({ type: 'engine.item', currentFile: '', counts: { success: 3, skipped: 0, failed: 1 } });
    report({ type: 'engine.done', result: resultWith('name_too_long') });
    expect(actor.getSnapshot().value).toBe('partial');
    expect(retryableFailures(actor.getSnapshot().context.result)).toEqual([]);
    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('partial');
    expect(starts).toHaveLength(1);
  });

  it('retries a job whose failures the server itself caused, handing the run what came before', () => {
    const { actor, report, starts } = harness(jobTask);
    report({ type: 'engine.item', currentFile: '', counts: { success: 3, skipped: 0, failed: 1 } });
    report({ type: 'engine.done', result: resultWith('internal') });
    expect(actor.getSnapshot().value).toBe('partial');
    actor.send({ type: 'task.retry' });
    expect(actor.getSnapshot().value).toBe('running');
    expect(starts[1]?.previous).toMatchObject({ job: { id: 'j1' } });
  });

  it('asks about names the job found taken, and runs again with the choice', () => {
    const { actor, report, starts } = harness(jobTask);
    const result: ServerJobResult = { job: endedJob, failed: [], conflicts: [{ path: '/local/a.bin', targetPath: '/local/a.bin', identical: false }] };
    report({ type: 'engine.done', result });
    expect(actor.getSnapshot().value).toBe('awaitingDecision');
    actor.send({ type: 'task.resolve', decision: { choice: 'replace', skipIdentical: false } });
    expect(actor.getSnapshot().value).toBe('running');
    expect(starts[1]?.resolution?.decision.choice).toBe('replace');
  });

  it('comes back paused after a reload when the job was paused', () => {
    const { actor, starts } = harness({ ...jobTask, restored: { status: 'paused' } });
    expect(actor.getSnapshot().value).toBe('paused');
    expect(starts).toHaveLength(0);
  });
});
