/**
 * How long after a page's start deferred work waits before it asks for an idle moment: a first load's network
 * and main thread belong to what the visitor came for, and `requestIdleCallback` alone fires between its chunks.
 */
export const SETTLE_MS = 3_000;

/** Runs `task` in an idle moment once the page has settled (`SETTLE_MS` after it started, at the latest +2 s). */
export function whenSettled(task: () => void): void {
  const idle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(() => task(), { timeout: 2_000 }) : setTimeout(task, 0);
  const wait = Math.max(0, SETTLE_MS - performance.now());
  if (wait === 0) idle();
  else setTimeout(idle, wait);
}

/** Resolves in a task of its own: the browser may paint and handle input before what follows runs. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
