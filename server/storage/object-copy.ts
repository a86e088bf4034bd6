import { addAbortSignal, pipeline, Transform, type Readable } from 'node:stream';
import { MAX_PART_COUNT, MIN_PART_BYTES, partRange, planUpload, type UploadPlan } from '../../contract/parts';
import {
  MultipartUploadNotFoundError,
  ObjectNotFoundError,
  SourceChangedError,
  type ObjectHead,
  type ServiceCopy,
  type StorageDriver,
  type StoredPart,
} from './driver';

/** Where a multipart copy stands: enough to go on after an abort, a crash or a restart. */
export interface CopyCheckpoint {
  uploadId: string;
  partSize: number;
  parts: { partNumber: number; etag: string; size: number }[];
  /** The source as the copy started (its size and ETag): a source changed since then makes a resume start over. */
  source?: ObjectHead;
}

export interface ObjectCopyOptions {
  size: number;
  /** The target's content type; a CopyObject within one service keeps the source's. */
  contentType: string;
  /** Parts recorded as done are not copied again. */
  resume?: CopyCheckpoint;
  /** Awaited after each part is stored, before the next is counted done (and once when the upload starts). */
  onCheckpoint?: (checkpoint: CopyCheckpoint) => Promise<void>;
  /** Bytes copied since the last call, for progress: told once a part (or a small object) is stored. */
  onBytes?: (bytes: number) => void;
  /** Abort: parts in flight stop; the upload is left for resume (or abortCopy). */
  signal?: AbortSignal;
}

export interface ObjectPlace {
  driver: StorageDriver;
  key: string;
}

/**
 * Parts copied at once: enough to keep both storages busy while one part waits on a round trip, few enough that
 * the bytes held (each part is streamed, never buffered whole) stay a few stream buffers per part.
 */
export const PARTS_AT_ONCE = 4;

/**
 * The service's own copy when both drivers reach one service as one principal (S3 CopyObject / UploadPartCopy):
 * then no byte passes through this server.
 */
function sharedService(from: ObjectPlace, to: ObjectPlace): { source: ServiceCopy; target: ServiceCopy } | undefined {
  const source = from.driver.serviceCopy;
  const target = to.driver.serviceCopy;
  return source && target && source.scope === target.scope ? { source, target } : undefined;
}

/**
 * Passes exactly `expected` bytes of `body` on; more or fewer means the source is not the object the copy was
 * planned for, and fails the stream (so the target's write fails and keeps nothing). Aborting `signal` fails it too.
 */
function exactly(body: Readable, expected: number, key: string, signal: AbortSignal): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > expected ? new SourceChangedError(key) : null, chunk);
    },
    flush(done) {
      done(seen === expected ? null : new SourceChangedError(key));
    },
  });
  // The pipeline destroys the source when the counter fails or is aborted, and the counter when the source fails.
  pipeline(body, counter, () => undefined);
  return addAbortSignal(signal, counter);
}

/**
 * Copies one object from one storage into another (or the same one). Within one service (two S3 drivers of one
 * scope) the service copies and no byte passes through this server: one CopyObject up to its limit (5 GiB), whole or
 * not at all; above, UploadPartCopy parts. Otherwise an object under one part is one streamed `put` (the target
 * appears whole or not at all), and a larger one a multipart upload on the target whose parts are ranges of the
 * source, streamed. Parts go PARTS_AT_ONCE at a time and are recorded through `onCheckpoint`, so that a later call
 * with `resume` copies only what is not stored yet.
 */
export async function copyObject(from: ObjectPlace, to: ObjectPlace, options: ObjectCopyOptions): Promise<{ etag: string; size: number }> {
  options.signal?.throwIfAborted();
  const service = sharedService(from, to);
  const whole = service ? options.size <= service.target.maxObjectBytes : planUpload(options.size).partCount === 1;
  if (!whole) return copyInParts(from, to, options, service);
  // A copy made whole has no upload to resume: one a caller still holds is dropped.
  if (options.resume) await abortCopy(to, options.resume);
  if (service) {
    // The copy keeps the source's content type: asking another (MetadataDirective REPLACE) made s3rver hash the copy
    // again, 18 s more for 2 GiB.
    const etag = await service.target.copyObject(service.source.objectOf(from.key), to.key);
    options.onBytes?.(options.size);
    return { etag, size: options.size };
  }
  const signal = options.signal ?? new AbortController().signal;
  const body = exactly(await from.driver.get(from.key), options.size, from.key, signal);
  const stored = await to.driver.put(to.key, body, { contentType: options.contentType });
  options.onBytes?.(stored.size);
  return stored;
}

/** Drops the target's multipart upload of a copy and every part it holds: nothing stray is left. */
export async function abortCopy(to: ObjectPlace, checkpoint: CopyCheckpoint): Promise<void> {
  await to.driver.abortMultipart(to.key, checkpoint.uploadId);
}

/** A part size the contract allows for `size` bytes (≥ 5 MiB, ≤ 10,000 parts). */
const fitsContract = (size: number, partSize: number) =>
  Number.isSafeInteger(partSize) && partSize >= MIN_PART_BYTES && Math.ceil(size / partSize) <= MAX_PART_COUNT;

/** The bytes part `partNumber` holds under `plan`. */
const lengthOf = (size: number, plan: UploadPlan, partNumber: number) => {
  const { start, end } = partRange(size, plan, partNumber);
  return end - start;
};

/**
 * The parts of `resume` that the target still holds as recorded (same ETag and size, the size the plan wants),
 * or undefined when the checkpoint cannot be continued: its upload is gone, its source changed, its plan is off.
 * A checkpoint that cannot be continued is aborted (its upload dropped).
 */
async function continued(to: ObjectPlace, resume: CopyCheckpoint, source: ObjectHead): Promise<StoredPart[] | undefined> {
  const sameSource = resume.source?.size === source.size && resume.source.etag === source.etag;
  if (!sameSource || !fitsContract(source.size, resume.partSize)) {
    await abortCopy(to, resume);
    return undefined;
  }
  let stored: StoredPart[];
  try {
    stored = await to.driver.listParts(to.key, resume.uploadId);
  } catch (error) {
    if (error instanceof MultipartUploadNotFoundError) return undefined;
    throw error;
  }
  const plan = { partSize: resume.partSize, partCount: Math.ceil(source.size / resume.partSize) };
  const held = new Map(stored.map((part) => [part.partNumber, part]));
  return resume.parts.filter((part) => {
    const found = held.get(part.partNumber);
    return (
      part.partNumber <= plan.partCount &&
      found?.etag.toLowerCase() === part.etag.toLowerCase() &&
      found.size === part.size &&
      part.size === lengthOf(source.size, plan, part.partNumber)
    );
  });
}

/**
 * Runs `work` on each item, `limit` at a time, until one fails or `outer` aborts: the first failure aborts the
 * signal the others were given, so that their parts in flight stop too. Waits for every work in flight, then
 * throws the abort's reason or the first failure.
 */
async function inLanes<T>(items: readonly T[], limit: number, outer: AbortSignal | undefined, work: (item: T, signal: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      signal.throwIfAborted();
      try {
        await work(items[next++] as T, signal);
      } catch (error) {
        stop.abort(error);
        throw error;
      }
    }
  };
  await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (outer?.aborted) throw outer.reason;
  if (stop.signal.aborted) throw stop.signal.reason;
}

type SharedService = ReturnType<typeof sharedService>;

async function copyInParts(from: ObjectPlace, to: ObjectPlace, options: ObjectCopyOptions, service: SharedService): Promise<{ etag: string; size: number }> {
  const source = await from.driver.head(from.key);
  if (!source) {
    if (options.resume) await abortCopy(to, options.resume);
    throw new ObjectNotFoundError(from.key);
  }
  if (source.size !== options.size) {
    if (options.resume) await abortCopy(to, options.resume);
    throw new SourceChangedError(from.key);
  }
  const kept = options.resume && (await continued(to, options.resume, source));
  const checkpoint: CopyCheckpoint = kept
    ? { uploadId: options.resume!.uploadId, partSize: options.resume!.partSize, parts: kept, source }
    : { uploadId: await to.driver.initMultipart(to.key, { contentType: options.contentType }), partSize: planUpload(source.size).partSize, parts: [], source };
  // Recorded before any part: a crash from here on leaves an upload its record names (to resume or abort).
  let recorded = Promise.resolve(options.onCheckpoint?.(structuredClone(checkpoint)));
  try {
    await recorded;
  } catch (error) {
    // A new upload no record names would be left for ever.
    if (!kept) await abortCopy(to, checkpoint);
    throw error;
  }

  const plan = { partSize: checkpoint.partSize, partCount: Math.ceil(source.size / checkpoint.partSize) };
  const done = new Set(checkpoint.parts.map((part) => part.partNumber));
  const todo = Array.from({ length: plan.partCount }, (_, index) => index + 1).filter((partNumber) => !done.has(partNumber));
  const copyPart = async (partNumber: number, signal: AbortSignal): Promise<StoredPart> => {
    const { start, end } = partRange(source.size, plan, partNumber);
    const target = { key: to.key, uploadId: checkpoint.uploadId, partNumber };
    if (service) return service.target.copyPart(service.source.objectOf(from.key), { start, end: end - 1 }, source.etag, target);
    const body = exactly(await from.driver.get(from.key, { start, end: end - 1 }), end - start, from.key, signal);
    return to.driver.uploadPart(to.key, checkpoint.uploadId, partNumber, body, { size: end - start });
  };

  await inLanes(todo, PARTS_AT_ONCE, options.signal, async (partNumber, signal) => {
    const part = await copyPart(partNumber, signal);
    if (part.size !== lengthOf(source.size, plan, partNumber)) throw new SourceChangedError(from.key);
    // One checkpoint after another, each with every part stored so far.
    recorded = recorded.then(async () => {
      checkpoint.parts = [...checkpoint.parts, part].sort((a, b) => a.partNumber - b.partNumber);
      await options.onCheckpoint?.(structuredClone(checkpoint));
    });
    await recorded;
    options.onBytes?.(part.size);
  });

  // Streamed parts read the source range by range: one that changed meanwhile would join two versions.
  // (UploadPartCopy checked the ETag with each part.)
  if (!service) {
    const after = await from.driver.head(from.key);
    if (after?.etag !== source.etag || after.size !== source.size) {
      await abortCopy(to, checkpoint);
      throw new SourceChangedError(from.key);
    }
  }
  const etag = await to.driver.completeMultipart(to.key, checkpoint.uploadId, checkpoint.parts);
  return { etag, size: source.size };
}
