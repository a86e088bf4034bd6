/**
 * Runs `work` on every item, at most `limit` at a time (storage answers slowly, one by one would wait on each
 * round trip; all at once would flood it). Resolves when every item is done; the first rejection rejects.
 */
export async function forEachAtOnce<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * A queue per id within this process: each work starts once the work queued before it under the same id has
 * settled (failed or not); works under different ids run side by side.
 */
export function oneAtATimePerId(): <T>(id: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(id) ?? Promise.resolve()).then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(id, tail);
    try {
      return await run;
    } finally {
      if (tails.get(id) === tail) tails.delete(id);
    }
  };
}
