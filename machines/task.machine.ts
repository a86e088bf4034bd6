import { assign, fromCallback, setup, type ActorRefFrom } from 'xstate';
import type { TaskType, TransferError, TransferProgress, UploadStage } from '../contract/transfer';

export interface TaskInput {
  id: string;
  type: TaskType;
  /** What the user recognises the task by, e.g. the file name. */
  label: string;
  /** What the runner needs (a File and options for uploads); opaque to the machine. */
  payload: unknown;
}

export interface TaskContext extends TaskInput {
  progress: TransferProgress;
  stage?: UploadStage;
  error?: TransferError;
  /** The finished task's answer (a file share for uploads). */
  result?: unknown;
  startedAt?: number;
  finishedAt?: number;
}

/** What a running task's runner reports back. */
export type RunnerEvent =
  | { type: 'engine.stage'; stage: UploadStage }
  | { type: 'engine.progress'; progress: TransferProgress }
  | { type: 'engine.done'; result: unknown }
  | { type: 'engine.failed'; error: TransferError };

export type TaskEvent = RunnerEvent | { type: 'task.cancel' } | { type: 'task.retry' };

const idle: TransferProgress = { loaded: 0, total: 0, percent: 0, speed: 0, secondsLeft: null };

/**
 * One task: pending → running → completed | failed | cancelled; a failed or cancelled task can be retried.
 * The runner (the transfer engine behind Comlink) is provided by the app; leaving `running` stops it, which
 * is how a cancel reaches the engine. Tags for the UI: `busy`, `error`, `done`.
 */
export const taskMachine = setup({
  types: {
    context: {} as TaskContext,
    events: {} as TaskEvent,
    input: {} as TaskInput,
  },
  actors: {
    runTask: fromCallback<TaskEvent, TaskInput>(() => () => {}),
  },
  actions: {
    markStarted: assign({ startedAt: () => Date.now(), finishedAt: undefined, error: undefined, result: undefined }),
    markFinished: assign({ finishedAt: () => Date.now() }),
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => ({ ...input, progress: idle }),
  initial: 'pending',
  states: {
    pending: {
      tags: ['busy'],
      always: 'running',
    },
    running: {
      tags: ['busy'],
      entry: 'markStarted',
      invoke: {
        src: 'runTask',
        input: ({ context }) => ({ id: context.id, type: context.type, label: context.label, payload: context.payload }),
      },
      on: {
        'engine.stage': { actions: assign({ stage: ({ event }) => event.stage }) },
        'engine.progress': { actions: assign({ progress: ({ event }) => event.progress }) },
        'engine.done': { target: 'completed', actions: assign({ result: ({ event }) => event.result }) },
        'engine.failed': [
          { guard: ({ event }) => event.error.code === 'cancelled', target: 'cancelled' },
          { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        ],
        'task.cancel': 'cancelled',
      },
    },
    completed: { tags: ['done'], entry: 'markFinished' },
    failed: {
      tags: ['error'],
      entry: 'markFinished',
      on: { 'task.retry': { target: 'running', actions: assign({ progress: idle, stage: undefined }) } },
    },
    cancelled: {
      entry: 'markFinished',
      on: { 'task.retry': { target: 'running', actions: assign({ progress: idle, stage: undefined }) } },
    },
  },
});

export type TaskActor = ActorRefFrom<typeof taskMachine>;

export const isFinished = (status: string) => status === 'completed' || status === 'failed' || status === 'cancelled';
