import type { FsClientCopy, FsReadGroup } from '../../contract/fs';
import type { SourceRead } from '../transport/source-io';
import { isCancelled } from './fs-items';

/**
 * How a copy reads its sources: a small file whole, a read group (several small LOCAL files in one answer) sliced
 * per file, a large file's ranges (SourceParts). The reading itself is given (`read`): in the engine, couriers
 * (workers/transport/couriers.ts) read into blobs that the engine never sees.
 */

/** What a lane takes from the queue: a read group with its copies in the group's order, or one copy read alone. */
export type ReadUnit = { group: FsReadGroup; copies: FsClientCopy[] } | { copy: FsClientCopy };

/**
 * The copies in the server's order, each group's copies together where the first of them stood. A group that
 * does not match single-PUT copies of the plan with its size (never expected) is not used: its files are read alone.
 */
export function readUnits(copies: FsClientCopy[], groups: FsReadGroup[]): ReadUnit[] {
  const bySource = new Map(copies.map((copy) => [copy.sourcePath, copy]));
  const groupOf = new Map<FsClientCopy, { group: FsReadGroup; copies: FsClientCopy[] }>();
  for (const group of groups) {
    const members = group.sourcePaths.flatMap((path) => bySource.get(path) ?? []);
    const fits =
      members.length === group.sourcePaths.length &&
      members.every((copy) => copy.upload.kind === 'put' && !groupOf.has(copy)) &&
      members.reduce((sum, copy) => sum + copy.fileSize, 0) === group.size;
    if (!fits) continue;
    const unit = { group, copies: members };
    for (const copy of members) groupOf.set(copy, unit);
  }
  return copies.flatMap((copy): ReadUnit[] => {
    const unit = groupOf.get(copy);
    if (!unit) return [{ copy }];
    return unit.copies[0] === copy ? [unit] : [];
  });
}

/** Bytes read from a source: a Blob, or the engine's handle on a courier's blob (CourierBytes). */
export interface SourceBytes {
  readonly size: number;
  slice(from: number, to: number): this;
}

/** Reads a source (exactly `size` bytes) of which `uses` slices will be sent; rejects with a TransferFailure. */
export type ReadSource<B extends SourceBytes> = (read: SourceRead & { size: number }, uses: number, signal: AbortSignal) => Promise<B>;

/** A lane's next file with its read, which rejects only when the copy awaits it (never unhandled before). */
export interface ReadAhead<B extends SourceBytes> {
  copy: FsClientCopy;
  read: Promise<B | undefined>;
}

/** Resolves once `previous` has ended, however it ended: reads go one after another. */
const after = (previous: Promise<unknown> | undefined) =>
  (previous ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );

/**
 * A read group's files read ahead with one request once the read before it has ended, each file a slice of the
 * answer. If the group read fails (not cancelled), its files are read one by one from their own download URLs
 * instead, still one read at a time; a file that fails then fails alone.
 */
export function readGroupAfter<B extends SourceBytes>(previous: Promise<unknown> | undefined, group: FsReadGroup, copies: FsClientCopy[], signal: AbortSignal, read: ReadSource<B>): ReadAhead<B>[] {
  const whole = after(previous).then(() => read({ url: group.url, size: group.size }, copies.length, signal));
  let lastAlone: Promise<unknown> = whole;
  let start = 0;
  return copies.map((copy) => {
    const [from, to] = [start, (start += copy.fileSize)];
    const file = whole.then(
      (bytes) => bytes.slice(from, to),
      (error: unknown) => {
        if (signal.aborted || isCancelled(error)) throw error;
        lastAlone = readAfter(lastAlone, copy, signal, read);
        return lastAlone as Promise<B | undefined>;
      },
    );
    file.catch(() => undefined);
    return { copy, read: file };
  });
}

/**
 * A small file (one PUT) read ahead, whole, once the read before it (`previous`) has ended; a multipart copy reads
 * its own parts (SourceParts: its "read" here only ends with the one before it, so that the lane's next read still
 * waits for that). A failed read rejects when its copy awaits it, never unhandled before.
 */
export function readAfter<B extends SourceBytes>(previous: Promise<unknown> | undefined, copy: FsClientCopy, signal: AbortSignal, read: ReadSource<B>): Promise<B | undefined> {
  const ended = after(previous);
  if (copy.upload.kind !== 'put') return ended;
  const file = ended.then(() => read({ url: copy.downloadUrl, size: copy.fileSize }, 1, signal));
  file.catch(() => undefined);
  return file;
}
