import { Transform, type Readable } from 'node:stream';
import type { StorageDriver } from '../../storage/driver';

/** Where a multipart copy stands: what a resumed copy needs to go on without copying its parts again. */
export interface CopyCheckpoint {
  uploadId: string;
  partSize: number;
  parts: { partNumber: number; etag: string; size: number }[];
}

/** One object of a storage. */
export interface ObjectEnd {
  driver: StorageDriver;
  key: string;
}

export interface CopyObjectOptions {
  size: number;
  contentType: string;
  /** The checkpoint a copy cut short recorded: its upload goes on from there. */
  resume?: CopyCheckpoint;
  /** Called with each new checkpoint; the copy waits for it (it is written to the job's item). */
  onCheckpoint?: (checkpoint: CopyCheckpoint) => Promise<void>;
  /** Bytes moved since the last call. */
  onBytes?: (bytes: number) => void;
  /** Aborting stops the copy: what was in flight is dropped and the copy rejects with the signal's reason. */
  signal?: AbortSignal;
}

export type CopyObject = (from: ObjectEnd, to: ObjectEnd, options: CopyObjectOptions) => Promise<{ etag: string; size: number }>;

/**
 * The copy every job item goes through. For now: inside one storage its own copy, between storages the bytes
 * streamed from one driver into the other (a cut-short copy starts again). The resumable copy engine
 * (server/storage/object-copy.ts) takes its place with the same signature.
 */
export const copyObject: CopyObject = async (from, to, options) => {
  options.signal?.throwIfAborted();
  if (from.driver === to.driver) {
    await from.driver.copy(from.key, to.key);
    options.onBytes?.(options.size);
    return headOf(to);
  }
  const source = await from.driver.get(from.key);
  const counted = countBytes(source, options);
  const stop = () => counted.destroy(options.signal?.reason instanceof Error ? options.signal.reason : new Error('copy aborted'));
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    return await to.driver.put(to.key, counted, { contentType: options.contentType });
  } catch (error) {
    options.signal?.throwIfAborted();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', stop);
    source.destroy();
  }
};

async function headOf(end: ObjectEnd) {
  const head = await end.driver.head(end.key);
  if (!head) throw new Error('The copied object is missing');
  return head;
}

function countBytes(source: Readable, options: CopyObjectOptions): Readable {
  // Counted as the target reads them, so that nothing flows before the target is ready.
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      options.onBytes?.(chunk.length);
      done(null, chunk);
    },
  });
  source.on('error', (error) => counted.destroy(error));
  // The target sees a destroyed body through its own reading; an abort must not also be an unhandled 'error' event.
  counted.on('error', () => undefined);
  return source.pipe(counted);
}
