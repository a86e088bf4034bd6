import type { JournalEvent, JournalTask } from '../../contract/transfer';

/** Folds one event into a task's state; events of a task that was never queued are ignored. */
export function apply(task: JournalTask | undefined, event: JournalEvent): JournalTask | undefined {
  if (event.type === 'queued') {
    const { type: _type, at, ...rest } = event;
    return { ...rest, parts: {}, status: 'queued', queuedAt: at };
  }
  if (!task) return undefined;
  switch (event.type) {
    case 'started':
      return { ...task, fileId: event.fileId, uploadId: event.uploadId, status: 'running' };
    case 'partDone':
      return { ...task, parts: { ...task.parts, [event.part.partNumber]: event.part } };
    case 'itemsDone':
      return {
        ...task,
        done: [...(task.done ?? []), ...event.paths],
        ...(event.shares && { shares: [...(task.shares ?? []), ...event.shares] }),
      };
    case 'completed':
      return { ...task, status: 'completed', result: event.result };
    case 'failed':
      return { ...task, status: 'failed', error: event.error };
    case 'cancelled':
      return { ...task, status: 'cancelled' };
  }
}

/** Rebuilds every task from the log, in the order the events were written. */
export function replay(events: readonly JournalEvent[]): Map<string, JournalTask> {
  const tasks = new Map<string, JournalTask>();
  for (const event of events) {
    const next = apply(tasks.get(event.taskId), event);
    if (next) tasks.set(event.taskId, next);
  }
  return tasks;
}

/** Part numbers still to send, in order. */
export function missingParts(task: JournalTask): number[] {
  const missing: number[] = [];
  for (let part = 1; part <= task.partCount; part++) if (!task.parts[part]) missing.push(part);
  return missing;
}

/** Bytes already uploaded, for progress after a resume. */
export const doneBytes = (task: JournalTask) => Object.values(task.parts).reduce((sum, part) => sum + part.size, 0);
