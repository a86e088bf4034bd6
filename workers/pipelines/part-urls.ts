/**
 * Part URLs signed per call, ahead of use (at most MAX_PARTS_SIGNED_AT_ONCE): 90 MiB of 5 MiB parts, signed long
 * before their URLs expire. Each call is a request the page's main thread hears of (Chromium reports a worker's
 * requests to its frame): 12 calls per GiB instead of 34 at 6 a call.
 */
export const SIGN_AHEAD = 18;

export interface SignedBatch {
  urls: { partNumber: number; url: string }[];
  /** When these URLs should no longer be used (ms since the epoch): half their lifetime, for slow parts. */
  until: number;
}

/**
 * The presigned URLs of a multipart upload's parts, signed a few at a time in the background just ahead of use, so
 * that a part starts as soon as a slot frees instead of first waiting for its own signing round trip. A retry, a
 * URL past its `until`, or one whose batch failed: the part is signed alone, and that call's failure is the
 * caller's to classify.
 */
export class PartUrls {
  private readonly position: Map<number, number>;
  private readonly started = new Set<number>();
  private readonly ahead = new Map<number, Promise<{ url: string; until: number } | undefined>>();

  /** `queue`: the parts to send, in order; `sign`: one signing call for the given parts. */
  constructor(
    private readonly queue: readonly number[],
    private readonly sign: (partNumbers: number[]) => Promise<SignedBatch>,
    private readonly now: () => number = Date.now,
  ) {
    this.position = new Map(queue.map((partNumber, index) => [partNumber, index]));
  }

  /** Signs the next SIGN_AHEAD parts from queue position `from` that are neither started nor signed yet. */
  signAhead(from = 0) {
    const batch: number[] = [];
    for (let index = from; index < this.queue.length && batch.length < SIGN_AHEAD; index++) {
      const next = this.queue[index] as number;
      if (!this.started.has(next) && !this.ahead.has(next)) batch.push(next);
    }
    if (batch.length === 0) return;
    const call = this.sign(batch);
    for (const partNumber of batch) {
      this.ahead.set(
        partNumber,
        call.then(
          ({ urls, until }) => {
            const url = urls.find((entry) => entry.partNumber === partNumber)?.url;
            return url ? { url, until } : undefined;
          },
          () => undefined,
        ),
      );
    }
  }

  /** A URL to send `partNumber` to now (undefined when the signer gave none); rejects when signing it alone fails. */
  async urlFor(partNumber: number): Promise<string | undefined> {
    this.started.add(partNumber);
    const kept = this.ahead.get(partNumber);
    this.ahead.delete(partNumber);
    if (this.ahead.size < SIGN_AHEAD / 2) this.signAhead((this.position.get(partNumber) ?? this.queue.length) + 1);
    const ready = kept && (await kept);
    if (ready && ready.until > this.now()) return ready.url;
    return (await this.sign([partNumber])).urls.find((entry) => entry.partNumber === partNumber)?.url;
  }
}
