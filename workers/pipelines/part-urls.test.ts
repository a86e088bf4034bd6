import { describe, expect, it } from 'vitest';
import { MAX_PARTS_SIGNED_AT_ONCE } from '../../contract/parts';
import { PartUrls, SIGN_AHEAD, type SignedBatch } from './part-urls';

/** A fake signer that records each call and signs every part as `u<part>#<call>`. */
function signer(options: { fail?: (call: number) => boolean; lifetime?: number } = {}) {
  const calls: number[][] = [];
  let now = 0;
  const sign = async (partNumbers: number[]): Promise<SignedBatch> => {
    calls.push(partNumbers);
    const call = calls.length;
    if (options.fail?.(call)) throw { code: 'network' };
    return { urls: partNumbers.map((partNumber) => ({ partNumber, url: `u${partNumber}#${call}` })), until: now + (options.lifetime ?? 1000) };
  };
  return { calls, sign, clock: { now: () => now, set: (value: number) => (now = value) } };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('PartUrls', () => {
  it('signs a batch ahead and hands its URLs out, then the next batch before the first runs out', async () => {
    const { calls, sign, clock } = signer();
    const total = SIGN_AHEAD * 3 + 2;
    const urls = new PartUrls(range(1, total), sign, clock.now);
    urls.signAhead();
    expect(SIGN_AHEAD).toBeLessThanOrEqual(MAX_PARTS_SIGNED_AT_ONCE);
    const half = SIGN_AHEAD / 2;
    // While at least half a batch is ahead, nothing more is signed.
    for (const part of range(1, half)) expect(await urls.urlFor(part)).toBe(`u${part}#1`);
    expect(calls).toEqual([range(1, SIGN_AHEAD)]);
    // Fewer than half a batch ahead: the next batch starts after them.
    expect(await urls.urlFor(half + 1)).toBe(`u${half + 1}#1`);
    expect(calls).toEqual([range(1, SIGN_AHEAD), range(SIGN_AHEAD + 1, SIGN_AHEAD * 2)]);
    for (const part of range(half + 2, total)) expect(await urls.urlFor(part)).toMatch(new RegExp(`^u${part}#`));
    expect(calls.flat()).toEqual(range(1, total));
  });

  it('signs a part alone when its URL is past its lifetime, or on a retry', async () => {
    const { calls, sign, clock } = signer({ lifetime: 100 });
    const urls = new PartUrls(range(1, 3), sign, clock.now);
    urls.signAhead();
    clock.set(150);
    expect(await urls.urlFor(1)).toBe('u1#2');
    expect(calls).toEqual([[1, 2, 3], [1]]);
    expect(await urls.urlFor(1)).toBe('u1#3');
  });

  it('signs a part alone when its batch failed, and passes that failure on', async () => {
    const { calls, sign, clock } = signer({ fail: (call) => call !== 2 });
    const urls = new PartUrls(range(1, 2), sign, clock.now);
    urls.signAhead();
    expect(await urls.urlFor(1)).toBe('u1#2');
    await expect(urls.urlFor(2)).rejects.toEqual({ code: 'network' });
    expect(calls).toEqual([[1, 2], [1], [2]]);
  });

  it('never signs ahead a part that already started', async () => {
    const { calls, sign, clock } = signer();
    const urls = new PartUrls([4, 9, 11], sign, clock.now);
    await urls.urlFor(4);
    urls.signAhead();
    expect(calls).toEqual([[9, 11], [4]]);
  });
});
