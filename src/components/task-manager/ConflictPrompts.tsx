import { useSelector } from '@xstate/react';
import { Suspense, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { taskManagerMachine } from '../../../machines/task-manager.machine';
import type { TaskActor } from '../../../machines/task.machine';
import { LazyConflictDialog } from './lazy-conflict-dialog';
import { useTaskChanges } from './use-task-changes';

type TaskManagerActor = ActorRefFrom<typeof taskManagerMachine>;

/**
 * Asks about a task's conflicts as soon as it finds them, once per task, wherever the task panel is: a task that
 * waits for a choice stops nothing else, and its row keeps the choice for later when this is closed.
 */
export function ConflictPrompts({ manager }: { manager: TaskManagerActor }) {
  const tasks = useSelector(manager, (state) => state.context.tasks);
  const [asked, setAsked] = useState<ReadonlySet<string>>(() => new Set());
  const waiting: TaskActor | undefined = useTaskChanges(tasks, () => tasks.find((task) => !asked.has(task.id) && task.ref.getSnapshot().hasTag('needsDecision'))?.ref);
  if (!waiting) return null;
  return (
    <Suspense fallback={null}>
      <LazyConflictDialog key={waiting.id} task={waiting} onClose={() => setAsked((ids) => new Set([...ids, waiting.id]))} />
    </Suspense>
  );
}
