import { useCallback, useEffect, useRef } from 'react';
import type { ActorRefFrom, Subscription } from 'xstate';
import type { taskManagerMachine } from '../../../machines/task-manager.machine';
import { isFinished } from '../../../machines/task.machine';

/**
 * Calls `onSettled` each time a task this page started ends (completed, partial, failed or cancelled), so the
 * folder is listed again after an upload, copy or delete. Returns `watch`, given the ids of tasks just added and,
 * if the caller wants to tell how they ended, `onEnd` with each one's first end: a retry is started from the task
 * panel, which shows how it goes, so it brings no second toast.
 */
export function useTasksSettled(manager: ActorRefFrom<typeof taskManagerMachine>, onSettled: () => void) {
  const subscriptions = useRef<Subscription[]>([]);
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => () => subscriptions.current.forEach((subscription) => subscription.unsubscribe()), []);

  return useCallback(
    (ids: string[], onEnd?: (status: string) => void) => {
      for (const entry of manager.getSnapshot().context.tasks.filter((task) => ids.includes(task.id))) {
        let ended = false;
        let told = false;
        const subscription = entry.ref.subscribe((state) => {
          const status = String(state.value);
          const finished = isFinished(status);
          if (finished && !ended) {
            settled.current();
            if (!told) onEnd?.(status);
            told = true;
          }
          ended = finished;
        });
        subscriptions.current.push(subscription);
      }
    },
    [manager],
  );
}
