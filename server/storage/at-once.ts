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
