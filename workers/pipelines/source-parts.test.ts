import { describe, expect, it } from 'vitest';
import { settled } from '../../tests/fixtures/settle';
import { PARTS_PER_READ, SourceParts } from './source-parts';

const PART = 4;
/**
 * A source of `size` bytes (byte i is i % 251) whose range reads are recorded; `fail` makes one range's read fail.
 * A read lasts a few turns of the microtask queue, no timer: reads at once overlap, and `settled()` sees them end.
 */
function source(size: number, fail?: (from: number) => boolean) {
  const bytes = Uint8Array.from({ length: size }, (_, index) => index % 251);
  const reads: { from: number; to: number }[] = [];
  let reading = 0;
  let mostAtOnce = 0;
  const read = async (from: number, to: number) => {
    reads.push({ from, to });
    mostAtOnce = Math.max(mostAtOnce, ++reading);
    for (let turn = 0; turn < 3; turn++) await Promise.resolve();
    reading--;
    if (fail?.(from)) throw { code: 'network' };
    return new Blob([bytes.slice(from, to)]);
  };
  return { bytes, reads, read, mostAtOnce: () => mostAtOnce };
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

describe('SourceParts', () => {
  it('hands out every part byte-exact, from one read per PARTS_PER_READ parts, one read at a time', async () => {
    const size = PART * PARTS_PER_READ * 2 + PART + 3; // two whole ranges, then one part and a short one
    const { bytes, reads, read, mostAtOnce } = source(size);
    const parts = new SourceParts(size, PART, read);
    const count = Math.ceil(size / PART);
    const got = await Promise.all(Array.from({ length: count }, (_, index) => parts.part(index + 1)));
    for (const [index, part] of got.entries()) expect(await bytesOf(part)).toEqual(bytes.slice(index * PART, (index + 1) * PART));
    const rangeBytes = PART * PARTS_PER_READ;
    expect(reads).toEqual([
      { from: 0, to: rangeBytes },
      { from: rangeBytes, to: 2 * rangeBytes },
      { from: 2 * rangeBytes, to: size },
    ]);
    expect(mostAtOnce()).toBe(1);
  });

  it('reads one range ahead of the parts taken, no further', async () => {
    const size = PART * PARTS_PER_READ * 4;
    const { reads, read } = source(size);
    const parts = new SourceParts(size, PART, read);
    await parts.part(1);
    await settled();
    expect(reads.map(({ from }) => from)).toEqual([0, PART * PARTS_PER_READ]);
  });

  it("fails the parts of a range that could not be read, and those after it, but not those before", async () => {
    const size = PART * PARTS_PER_READ * 3;
    const { read } = source(size, (from) => from === PART * PARTS_PER_READ);
    const parts = new SourceParts(size, PART, read);
    const results = await Promise.allSettled(Array.from({ length: PARTS_PER_READ * 3 }, (_, index) => parts.part(index + 1)));
    expect(results.map((result) => result.status)).toEqual([
      ...Array<string>(PARTS_PER_READ).fill('fulfilled'),
      ...Array<string>(PARTS_PER_READ * 2).fill('rejected'),
    ]);
  });

  it('gives every range it read, the one read ahead included, to dispose, once each', async () => {
    const size = PART * PARTS_PER_READ * 4;
    const { read } = source(size);
    const parts = new SourceParts(size, PART, read);
    await parts.part(1);
    await parts.part(PARTS_PER_READ + 1);
    const released: number[] = [];
    parts.dispose((range) => released.push(range.size));
    await settled();
    expect(released).toEqual([PART * PARTS_PER_READ, PART * PARTS_PER_READ, PART * PARTS_PER_READ]);
  });
});
