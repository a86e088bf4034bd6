import { PassThrough, type Readable } from 'node:stream';
import type { ObjectHead, StorageDriver } from '../storage/driver';

class OverBudget extends Error {}

export type BudgetedPut = { kind: 'stored'; head: ObjectHead } | { kind: 'over_budget'; seen: number } | { kind: 'failed'; error: unknown };

/**
 * Streams `source` into `key` until it passes `budget` bytes. Over budget, the stream into storage stops, the
 * partial object is removed and the rest of the source is read only to count it (so a 413 can say how big the
 * file was, and the client gets an answer instead of a reset connection). The source is always read to its end.
 */
export async function putWithinBudget(driver: StorageDriver, key: string, source: Readable, contentType: string, budget: number): Promise<BudgetedPut> {
  let seen = 0;
  let overBudget = false;
  const sink = new PassThrough();
  // The driver may attach to the sink after bytes (and a refusal) arrived; it still sees the error then.
  sink.on('error', () => undefined);
  let sinkOpen = true;
  const discardRest = () => {
    sinkOpen = false;
    source.resume();
  };
  sink.on('close', () => {
    if (sinkOpen) discardRest();
  });
  source.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (!sinkOpen) return;
    if (seen > budget) {
      overBudget = true;
      sink.destroy(new OverBudget());
      discardRest();
      return;
    }
    if (!sink.write(chunk)) {
      source.pause();
      sink.once('drain', () => source.resume());
    }
  });
  const ended = new Promise<void>((resolve, reject) => {
    source.on('end', () => {
      if (sinkOpen) {
        sinkOpen = false;
        sink.end();
      }
      resolve();
    });
    source.on('error', (error) => {
      sink.destroy(error);
      reject(error);
    });
  });

  const put = driver.put(key, sink, { contentType });
  const [outcome] = await Promise.allSettled([put, ended]);
  await ended;
  if (overBudget) {
    await driver.delete(key).catch(() => undefined);
    return { kind: 'over_budget', seen };
  }
  return outcome.status === 'fulfilled' ? { kind: 'stored', head: outcome.value } : { kind: 'failed', error: outcome.reason };
}
