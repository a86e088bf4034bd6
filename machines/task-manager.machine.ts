import { assign, enqueueActions, setup } from 'xstate';
import { PARTS_PER_UPLOAD_CHOICES, type TaskPayload } from '../contract/transfer';
import { isFinished, taskMachine, type TaskActor, type TaskInput } from './task.machine';

export interface TaskManagerContext {
  /** Newest last. */
  tasks: { id: string; ref: TaskActor }[];
  /** Parts in flight per upload, as this browser chose (the engine applies it). */
  partsPerUpload: number;
}

export type TaskManagerEvent =
  | { type: 'tasks.add'; task: TaskInput }
  /** Tasks rebuilt from the engine's journal after a reload. */
  | { type: 'tasks.restore'; tasks: TaskInput[] }
  | { type: 'task.remove'; id: string }
  | { type: 'tasks.clearFinished' }
  | { type: 'tasks.partsPerUpload'; value: number };

const statusOf = (task: { ref: TaskActor }) => String(task.ref.getSnapshot().value);

/**
 * Holds every transfer task as a spawned child actor keyed by id. Remove and clear-finished stop the children
 * they drop and tell the engine to forget them (`forgetTask`, provided by the app); a running task must be
 * cancelled before it can be removed.
 */
export const taskManagerMachine = setup({
  types: {
    context: {} as TaskManagerContext,
    events: {} as TaskManagerEvent,
    input: {} as { partsPerUpload: number },
  },
  actors: { task: taskMachine },
  actions: {
    forgetTask: (_, _params: { id: string; payload: TaskPayload }) => {},
    /** Keeps the choice and hands it to the engine (provided by the app). */
    applyPartsPerUpload: (_, _params: { value: number }) => {},
  },
}).createMachine({
  id: 'taskManager',
  context: ({ input }) => ({ tasks: [], partsPerUpload: input.partsPerUpload }),
  on: {
    'tasks.add': {
      actions: assign({
        tasks: ({ context, event, spawn }) => [
          ...context.tasks,
          { id: event.task.id, ref: spawn('task', { id: event.task.id, input: event.task }) },
        ],
      }),
    },
    'tasks.restore': {
      actions: assign({
        tasks: ({ context, event, spawn }) => [
          ...event.tasks
            .filter((task) => !context.tasks.some((known) => known.id === task.id))
            .map((task) => ({ id: task.id, ref: spawn('task', { id: task.id, input: task }) })),
          ...context.tasks,
        ],
      }),
    },
    'task.remove': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const task = context.tasks.find((entry) => entry.id === event.id);
        if (!task || !isFinished(statusOf(task)) && statusOf(task) !== 'awaitingFile') return;
        enqueue.stopChild(task.ref);
        enqueue({ type: 'forgetTask', params: { id: task.id, payload: task.ref.getSnapshot().context.payload } });
        enqueue.assign({ tasks: context.tasks.filter((entry) => entry.id !== event.id) });
      }),
    },
    'tasks.partsPerUpload': {
      guard: ({ event }) => (PARTS_PER_UPLOAD_CHOICES as readonly number[]).includes(event.value),
      actions: [
        assign({ partsPerUpload: ({ event }) => event.value }),
        { type: 'applyPartsPerUpload', params: ({ event }) => ({ value: event.value }) },
      ],
    },
    'tasks.clearFinished': {
      actions: enqueueActions(({ context, enqueue }) => {
        const finished = context.tasks.filter((task) => isFinished(statusOf(task)));
        for (const task of finished) {
          enqueue.stopChild(task.ref);
          enqueue({ type: 'forgetTask', params: { id: task.id, payload: task.ref.getSnapshot().context.payload } });
        }
        enqueue.assign({ tasks: context.tasks.filter((task) => !finished.includes(task)) });
      }),
    },
  },
});
