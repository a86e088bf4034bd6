import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BudgetGuard, OverBudget } from './budget-guard';
import { putWithinBudget } from './budgeted-put';

/** Sends `chunks` through a guard of `budget` bytes; what came out the other side, and how it ended. */
async function throughGuard(budget: number, chunks: Buffer[]) {
  const passed: Buffer[] = [];
  const guard = new BudgetGuard(budget);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      passed.push(chunk);
      done();
    },
  });
  const ended = await pipeline(Readable.from(chunks), guard, sink).then(
    () => 'finished',
    (error: unknown) => error,
  );
  return { passed: Buffer.concat(passed), ended, seen: guard.seen };
}

/** A storage that keeps whole objects in memory, and none whose body failed (as the drivers promise). */
function memoryStorage() {
  const objects = new Map<string, Buffer>();
  return {
    objects,
    async put(key: string, body: Readable) {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      objects.set(key, bytes);
      return { size: bytes.length, etag: `etag-${bytes.length}` };
    },
    async delete(key: string) {
      objects.delete(key);
    },
  };
}

const bytes = (length: number, fill: number) => Buffer.alloc(length, fill);

describe('the byte-budget guard', () => {
  it('passes a body of exactly the budget whole', async () => {
    const { passed, ended } = await throughGuard(10, [bytes(6, 1), bytes(4, 2)]);
    expect(ended).toBe('finished');
    expect(passed).toEqual(Buffer.concat([bytes(6, 1), bytes(4, 2)]));
  });

  it('fails with OverBudget at budget + 1 bytes and passes on nothing past the budget', async () => {
    const { passed, ended, seen } = await throughGuard(10, [bytes(10, 1), bytes(1, 2), bytes(5, 3)]);
    expect(ended).toBeInstanceOf(OverBudget);
    expect(ended).toMatchObject({ budget: 10 });
    expect(passed).toEqual(bytes(10, 1));
    expect(seen).toBe(11);
  });

  it('does not pass on the chunk that crosses the budget, even the part of it under the budget', async () => {
    const { passed, ended } = await throughGuard(10, [bytes(6, 1), bytes(6, 2)]);
    expect(ended).toBeInstanceOf(OverBudget);
    expect(passed).toEqual(bytes(6, 1));
  });
});

describe('putWithinBudget', () => {
  const chunks = () => Array.from({ length: 5 }, (_, index) => bytes(1000, index));

  it('stores a body within the budget', async () => {
    const storage = memoryStorage();
    const outcome = await putWithinBudget(storage, 'a.bin', Readable.from(chunks()), 'application/octet-stream', 5000);
    expect(outcome).toEqual({ kind: 'stored', head: { size: 5000, etag: 'etag-5000' } });
    expect(storage.objects.get('a.bin')).toEqual(Buffer.concat(chunks()));
  });

  it('over the budget stores nothing, reads the source to its end and counts all of it', async () => {
    const storage = memoryStorage();
    const source = Readable.from(chunks());
    const outcome = await putWithinBudget(storage, 'a.bin', source, 'application/octet-stream', 4999);
    expect(outcome).toEqual({ kind: 'over_budget', seen: 5000 });
    expect(storage.objects.has('a.bin')).toBe(false);
    expect(source.readableEnded).toBe(true);
  });

  it('answers a storage failure as failed, not over budget, and still reads the source to its end', async () => {
    const refusal = new Error('disk full');
    const source = Readable.from(chunks());
    const outcome = await putWithinBudget(
      {
        put: async (_key, body) => {
          body.destroy(refusal);
          throw refusal;
        },
        delete: async () => undefined,
      },
      'a.bin',
      source,
      'application/octet-stream',
      2500,
    );
    expect(outcome).toEqual({ kind: 'failed', error: refusal });
    expect(source.readableEnded).toBe(true);
  });
});
