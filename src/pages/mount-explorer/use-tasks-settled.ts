import { useCallback, useEffect, useRef } from 'react';
import type { ActorRefFrom, Subscription } from 'xstate';
import type { taskManagerMachine } from '../../../machines/task-manager.machine';
import { isFinished } from '../../../machines/task.machine';

/**
 * Calls `onSettled` each time a task this page started ends (completed, partial, failed or cancelled), so the
 * folder is listed again after an upload, copy or delete. Returns `watch`, given the ids of tasks just added.
 */
export function useTasksSettled(manager: ActorRefFrom<typeof taskManagerMachine>, onSettled: () => void) {
  const subscriptions = useRef<Subscription[]>([]);
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => () => subscriptions.current.forEach((subscription) => subscription.unsubscribe()), []);

  return useCallback(
    (ids: string[]) => {
      for (const entry of manager.getSnapshot().context.tasks.filter((task) => ids.includes(task.id))) {
        let ended = false;
        const subscription = entry.ref.subscribe((state) => {
          const finished = isFinished(String(state.value));
          if (finished && !ended) settled.current();
          ended = finished;
        });
        subscriptions.current.push(subscription);
      }
    },
    [manager],
  );
}
