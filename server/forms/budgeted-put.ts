import type { Readable } from 'node:stream';
import type { ObjectHead, StorageDriver } from '../storage/driver';
import { BudgetGuard, OverBudget } from './budget-guard';

export type BudgetedPut = { kind: 'stored'; head: ObjectHead } | { kind: 'over_budget'; seen: number } | { kind: 'failed'; error: unknown };

/**
 * Streams `source` into `key` until it passes `budget` bytes. Over budget, the stream into storage stops, the
 * partial object is removed and the rest of the source is read only to count it (so a 413 can say how big the
 * file was, and the client gets an answer instead of a reset connection). The source is always read to its end.
 */
export async function putWithinBudget(driver: Pick<StorageDriver, 'put' | 'delete'>, key: string, source: Readable, contentType: string, budget: number): Promise<BudgetedPut> {
  let seen = 0;
  const guard = new BudgetGuard(budget);
  // The driver may attach to the guard after bytes (and a refusal) arrived; it still sees the error then.
  guard.on('error', () => undefined);
  // Once nothing more goes to storage (over budget, or the driver stopped reading), the rest is only counted.
  guard.on('close', () => source.resume());
  const storing = () => !guard.destroyed && !guard.errored;
  source.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (!storing()) return;
    if (!guard.write(chunk)) {
      source.pause();
      guard.once('drain', () => source.resume());
    }
  });
  const ended = new Promise<void>((resolve, reject) => {
    source.on('end', () => {
      if (storing()) guard.end();
      resolve();
    });
    source.on('error', (error) => {
      guard.destroy(error);
      reject(error);
    });
  });

  const put = driver.put(key, guard, { contentType });
  const [outcome] = await Promise.allSettled([put, ended]);
  await ended;
  if (guard.errored instanceof OverBudget) {
    await driver.delete(key).catch(() => undefined);
    return { kind: 'over_budget', seen };
  }
  return outcome.status === 'fulfilled' ? { kind: 'stored', head: outcome.value } : { kind: 'failed', error: outcome.reason };
}
