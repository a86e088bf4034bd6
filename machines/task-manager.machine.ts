import { assign, enqueueActions, setup, stopChild } from 'xstate';
import { isFinished, taskMachine, type TaskActor, type TaskInput } from './task.machine';

export interface TaskManagerContext {
  /** Newest last. */
  tasks: { id: string; ref: TaskActor }[];
}

export type TaskManagerEvent =
  | { type: 'tasks.add'; task: TaskInput }
  | { type: 'task.remove'; id: string }
  | { type: 'tasks.clearFinished' };

/**
 * Holds every transfer task as a spawned child actor keyed by id. Remove and clear-finished stop the
 * children they drop; a running task must be cancelled before it can be removed.
 */
export const taskManagerMachine = setup({
  types: {
    context: {} as TaskManagerContext,
    events: {} as TaskManagerEvent,
  },
  actors: { task: taskMachine },
}).createMachine({
  id: 'taskManager',
  context: { tasks: [] },
  on: {
    'tasks.add': {
      actions: assign({
        tasks: ({ context, event, spawn }) => [
          ...context.tasks,
          { id: event.task.id, ref: spawn('task', { id: event.task.id, input: event.task }) },
        ],
      }),
    },
    'task.remove': {
      guard: ({ context, event }) => {
        const task = context.tasks.find((entry) => entry.id === event.id);
        return task !== undefined && isFinished(String(task.ref.getSnapshot().value));
      },
      actions: [
        stopChild(({ event }) => event.id),
        assign({ tasks: ({ context, event }) => context.tasks.filter((entry) => entry.id !== event.id) }),
      ],
    },
    'tasks.clearFinished': {
      actions: [
        enqueueActions(({ context, enqueue }) => {
          for (const task of context.tasks) {
            if (isFinished(String(task.ref.getSnapshot().value))) enqueue.stopChild(task.ref);
          }
        }),
        assign({
          tasks: ({ context }) => context.tasks.filter((entry) => !isFinished(String(entry.ref.getSnapshot().value))),
        }),
      ],
    },
  },
});
