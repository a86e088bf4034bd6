import { useCallback, useSyncExternalStore } from 'react';
import type { TaskManagerContext } from '../../../machines/task-manager.machine';

/**
 * A value read from the tasks, kept current as each task moves: a task's change does not change the manager's
 * snapshot, so each task is watched (an unchanged value renders nothing).
 */
export function useTaskChanges<T>(tasks: TaskManagerContext['tasks'], read: () => T): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscriptions = tasks.map((task) => task.ref.subscribe(onChange));
      return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
    },
    [tasks],
  );
  return useSyncExternalStore(subscribe, read);
}
