import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectHead } from '../driver';
import { md5Digest, type Digest } from './digest';
import { isMissing, metaPathOf, STAGING, type LocalContext } from './root';

/** Counts and digests what passes through: MD5 for objects (the S3-like ETag), CRC-32 for staged parts. */
export class DigestCounter extends Transform {
  bytes = 0;
  constructor(private readonly digest: Digest = md5Digest()) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null, data?: Buffer) => void) {
    this.digest.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  /** Size and ETag of everything that passed; once only, as it finishes the digest. */
  head(): ObjectHead {
    return { size: this.bytes, etag: this.digest.hex() };
  }
}

/**
 * Bytes a new file's stream holds before it asks its source to wait. The default (16 KiB) is below one network
 * chunk, so every chunk became its own write and wake of a pool thread; a larger buffer lets the chunks that arrive
 * during a write go down together in one `writev`.
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Streams `source` through `counter` into a new file at `path`. On failure the file is removed once its stream has
 * closed: a failure can come while the file is still being opened, and a remove before that would run first and
 * leave the file behind.
 */
export async function writeNewFile(source: Readable | (() => AsyncIterable<Buffer>), counter: Transform, path: string): Promise<void> {
  const file = createWriteStream(path, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES });
  try {
    await pipeline(source, counter, file);
  } catch (error) {
    if (!file.closed) await once(file, 'close').catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}

/** The size of the file at `file`; undefined when there is none, or a folder (not an object). */
export async function fileSize(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export async function hashFile(file: string): Promise<ObjectHead> {
  const counter = new DigestCounter();
  const handle = await open(file, 'r');
  counter.resume();
  await pipeline(handle.createReadStream(), counter);
  return counter.head();
}

/** Removes now-empty folders from `dir` up to (not including) `stop`. */
export async function pruneEmpty(dir: string, stop: string) {
  while (dir.startsWith(stop + sep)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

/**
 * Makes `target`'s folder and runs `write` into it. A delete beside this write may prune the folder as empty between
 * its making and the write (a batch's refused file, removed with its metadata): made again, once or twice, the
 * write still lands, so that a refused file never takes its neighbours with it.
 */
export async function inItsFolder(target: string, write: () => Promise<void>) {
  for (let attempt = 1; ; attempt += 1) {
    await mkdir(dirname(target), { recursive: true });
    try {
      return await write();
    } catch (error) {
      if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

export async function writeMeta(context: LocalContext, key: string, head: ObjectHead) {
  const file = metaPathOf(context, key);
  await inItsFolder(file, () => writeFile(file, JSON.stringify(head)));
}

/** The size and ETag kept for a key, when they are kept and still match a file of `size` bytes. */
export async function rememberedHead(context: LocalContext, key: string, size: number): Promise<ObjectHead | undefined> {
  try {
    const meta = JSON.parse(await readFile(metaPathOf(context, key), 'utf8')) as ObjectHead;
    if (meta.size === size && typeof meta.etag === 'string') return meta;
  } catch {
    // No metadata (a file put there by hand, or not hashed yet).
  }
  return undefined;
}

/** A fresh path in the staging folder, where a new object is written before it is renamed into place. */
export async function stagingFileOf(context: LocalContext): Promise<string> {
  const staging = join(context.root, STAGING, randomUUID());
  await mkdir(dirname(staging), { recursive: true });
  return staging;
}

/** Renames a whole file to `target`, the object of `key`; its metadata goes first, so the object never shows without it. */
export async function placeFile(context: LocalContext, file: string, key: string, target: string, head: ObjectHead) {
  await writeMeta(context, key, head);
  await inItsFolder(target, () => rename(file, target));
}
