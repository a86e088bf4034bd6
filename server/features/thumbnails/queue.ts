import { ApiError } from '../../errors';

/**
 * At most `running` tasks at once, at most `waiting` more in line; past that a caller is told to come back (429)
 * rather than piling up memory. The grid asks for a screenful at once, so the line is long and the work narrow.
 * A task whose `signal` aborts while it waits leaves the line without running (its asker has gone).
 */
export function createLimiter(running: number, waiting: number) {
  let active = 0;
  const line: (() => void)[] = [];
  async function run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (active < running) active++;
    else {
      if (line.length >= waiting) throw new ApiError(429, 'thumbnail_busy');
      // A finishing task hands its place over: `active` counts it still.
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          line.splice(line.indexOf(start), 1);
          reject(signal?.reason);
        };
        line.push(start);
        signal?.addEventListener('abort', leave, { once: true });
      });
    }
    try {
      return await task();
    } finally {
      const next = line.shift();
      if (next) next();
      else active--;
    }
  }
  return Object.assign(run, { waiting: () => line.length });
}
