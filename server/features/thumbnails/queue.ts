import { ApiError } from '../../errors';

/**
 * At most `running` tasks at once, at most `waiting` more in line; past that a caller is told to come back (429)
 * rather than piling up memory. The grid asks for a screenful at once, so the line is long and the work narrow.
 */
export function createLimiter(running: number, waiting: number) {
  let active = 0;
  const line: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < running) active++;
    else {
      if (line.length >= waiting) throw new ApiError(429, 'thumbnail_busy');
      // A finishing task hands its place over: `active` counts it still.
      await new Promise<void>((resolve) => line.push(resolve));
    }
    try {
      return await task();
    } finally {
      const waiter = line.shift();
      if (waiter) waiter();
      else active--;
    }
  };
}
