import type { SourceBytes } from './source-reads';

/** Parts of a copy's source read per range request: one request feeds this many parts. */
export const PARTS_PER_READ = 6;

/**
 * A large source handed out part by part, read as ranges of PARTS_PER_READ parts, one request at a time and one
 * range ahead of the parts taken (as a single download stream keeps ahead of the uploads it feeds). Each range
 * arrives as one blob (in a courier, see fs-copy) and each part is a slice of it: one request per PARTS_PER_READ
 * parts instead of one per part.
 */
export class SourceParts<B extends SourceBytes> {
  /** Every range asked for, by index: a handle each (the bytes are in a courier), kept for `dispose`. */
  private readonly ranges = new Map<number, Promise<B>>();
  private readonly rangeBytes: number;

  /** `read(from, to)`: bytes `from` up to (not including) `to` of the source, exactly. */
  constructor(
    private readonly size: number,
    private readonly partSize: number,
    private readonly read: (from: number, to: number) => Promise<B>,
  ) {
    this.rangeBytes = partSize * PARTS_PER_READ;
  }

  /** Part `number` (from 1, taken in order); rejects when its range could not be read. */
  async part(number: number): Promise<B> {
    const index = Math.floor((number - 1) / PARTS_PER_READ);
    const range = this.range(index);
    this.range(index + 1);
    if (!range) throw new RangeError(`no part ${number} in ${this.size} bytes`);
    const start = (number - 1) * this.partSize - index * this.rangeBytes;
    return (await range).slice(start, start + this.partSize);
  }

  /**
   * Hands every range read to `release`, once it is read: called when no more parts will be taken, so that what
   * was read and will not be sent (after a failure, the range read ahead) is given up.
   */
  dispose(release: (range: B) => void) {
    for (const range of this.ranges.values()) range.then(release, () => undefined);
    this.ranges.clear();
  }

  /** Range `index`, read once the one before it is (one request at a time); undefined past the end. */
  private range(index: number): Promise<B> | undefined {
    const from = index * this.rangeBytes;
    let range = this.ranges.get(index);
    if (!range && from < this.size) {
      const before: Promise<unknown> = this.ranges.get(index - 1) ?? Promise.resolve(undefined);
      range = before.then(() => this.read(from, Math.min(from + this.rangeBytes, this.size)));
      // A range read ahead that fails is met by the part that awaits it, not left unhandled.
      range.catch(() => undefined);
      this.ranges.set(index, range);
    }
    return range;
  }
}
