import type { FsClientCopy, FsReadGroup } from '../../contract/fs';
import type { TransferError } from '../../contract/transfer';
import { isCancelled } from './fs-items';

/**
 * How a copy reads its sources: a small file whole into a blob, a read group (several small LOCAL files in one
 * answer) sliced into one blob per file, a large file's ranges. Blobs live in the browser's blob storage, not the
 * worker's heap, and no byte passes through a script.
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

/** A lane's next file with its read, which rejects only when the copy awaits it (never unhandled before). */
export interface ReadAhead {
  copy: FsClientCopy;
  read: Promise<Blob | undefined>;
}

/** Resolves once `previous` has ended, however it ended: reads go one after another. */
const after = (previous: Promise<unknown> | undefined) =>
  (previous ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );

/**
 * A read group's files read ahead with one request once the read before it has ended, each file a slice of the
 * answer's blob. If the group read fails (not cancelled), its files are read one by one from their own download
 * URLs instead, still one read at a time; a file that fails then fails alone.
 */
export function readGroupAfter(previous: Promise<unknown> | undefined, group: FsReadGroup, copies: FsClientCopy[], signal: AbortSignal): ReadAhead[] {
  const whole = after(previous).then(() => readGroup(group, signal));
  let lastAlone: Promise<unknown> = whole;
  let start = 0;
  return copies.map((copy) => {
    const [from, to] = [start, (start += copy.fileSize)];
    const read = whole.then(
      (blob) => blob.slice(from, to),
      (error: unknown) => {
        if (signal.aborted || isCancelled(error)) throw error;
        lastAlone = readAfter(lastAlone, copy, signal);
        return lastAlone as Promise<Blob | undefined>;
      },
    );
    read.catch(() => undefined);
    return { copy, read };
  });
}

/** The group's bytes as one blob; anything but exactly the planned size is an error. */
async function readGroup(group: FsReadGroup, signal: AbortSignal): Promise<Blob> {
  const bytes = await blobOf(await fetchSource(group.url, signal));
  if (bytes.size !== group.size) throw { code: 'upload_failed', serverMessage: 'download group' } satisfies TransferError;
  return bytes;
}

/**
 * A small file (one PUT) read ahead, whole, into a blob (outside this worker's heap), once the read before it
 * (`previous`) has ended; a multipart copy reads its own parts (SourceParts: its "read" here only ends with the
 * one before it, so that the lane's next read still waits for that). A failed read rejects when its copy
 * awaits it, never unhandled before.
 */
export function readAfter(previous: Promise<unknown> | undefined, copy: FsClientCopy, signal: AbortSignal): Promise<Blob | undefined> {
  const ended = after(previous);
  if (copy.upload.kind !== 'put') return ended;
  const read = ended.then(() => fetchSource(copy.downloadUrl, signal)).then(blobOf);
  read.catch(() => undefined);
  return read;
}

/** Bytes `from` up to (not including) `to` of the source, as a blob; anything but exactly those bytes is an error. */
export async function downloadRange(copy: FsClientCopy, from: number, to: number, signal: AbortSignal): Promise<Blob> {
  const bytes = await blobOf(await fetchSource(copy.downloadUrl, signal, `bytes=${from}-${to - 1}`));
  if (bytes.size !== to - from) throw { code: 'upload_failed', serverMessage: 'download range' } satisfies TransferError;
  return bytes;
}

/**
 * Source bytes from a signed download URL (one file's or a read group's). Past the HTTP cache: the bytes are read
 * once, and Chromium would otherwise write every one of them into its cache too (file answers may be stored, to
 * be revalidated).
 */
async function fetchSource(url: string, signal: AbortSignal, range?: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal, cache: 'no-store', ...(range && { headers: { Range: range } }) });
  } catch {
    throw { code: signal.aborted ? 'cancelled' : 'network' } satisfies TransferError;
  }
  if (!response.ok || !response.body) throw { code: 'upload_failed', status: response.status, serverMessage: 'download' } satisfies TransferError;
  return response;
}


/** The last ArrayBuffer made to count a blob: kept, so that the bundler does not drop making it as unused. */
const countedForGc: ArrayBuffer[] = [];

/**
 * A response's bytes as a blob, whose size V8 is told of. Blink tells V8 nothing of the memory a Blob holds, nor
 * of an upload's body, so in this worker, which makes little garbage of its own, V8 never collects: every blob read
 * and every upload sent stayed in Chromium's memory until the blob storage was full (a copy of 2 GiB failed). An
 * ArrayBuffer of the blob's size, never written to (so never resident), is counted as external memory: after
 * some 64 MiB of them V8 collects, and with the dead wrappers go their blobs and request bodies.
 */
async function blobOf(response: Response): Promise<Blob> {
  const blob = await response.blob();
  countedForGc.splice(0, 1, new ArrayBuffer(blob.size));
  return blob;
}
