import { copyFile, open, rm, stat as statPath, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ObjectNotFoundError, type ByteRange, type ListedObject, type ObjectHead } from '../driver';
import { fileSize, hashFile, DigestCounter, placeFile, pruneEmpty, rememberedHead, stagingFileOf, writeMeta, writeNewFile } from './disk';
import { confinedPathOf, isMissing, META, metaPathOf, type LocalContext } from './root';

export async function put(context: LocalContext, key: string, body: Readable): Promise<ObjectHead> {
  const target = await confinedPathOf(context, key);
  const staging = await stagingFileOf(context);
  const counter = new DigestCounter();
  try {
    await writeNewFile(body, counter, staging);
    const stored = counter.head();
    await placeFile(context, staging, key, target, stored);
    return stored;
  } catch (error) {
    await rm(staging, { force: true });
    throw error;
  }
}

export async function get(context: LocalContext, key: string, range?: ByteRange): Promise<Readable> {
  let handle;
  try {
    handle = await open(await confinedPathOf(context, key), 'r');
  } catch (error) {
    if (isMissing(error)) throw new ObjectNotFoundError(key);
    throw error;
  }
  return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
}

export async function sizeOf(context: LocalContext, key: string): Promise<number | undefined> {
  return fileSize(await confinedPathOf(context, key));
}

export async function head(context: LocalContext, key: string): Promise<ObjectHead | undefined> {
  const file = await confinedPathOf(context, key);
  const size = await fileSize(file);
  if (size === undefined) return undefined;
  const remembered = await rememberedHead(context, key, size);
  if (remembered) return remembered;
  // A file put there by hand: hash it once and remember.
  const hashed = await hashFile(file);
  await writeMeta(context, key, hashed);
  return hashed;
}

export async function stat(context: LocalContext, key: string): Promise<ListedObject | undefined> {
  const found = await head(context, key);
  if (!found) return undefined;
  const info = await statPath(await confinedPathOf(context, key));
  return { key, size: found.size, etag: found.etag, modified: info.mtime };
}

export async function deleteObject(context: LocalContext, key: string): Promise<void> {
  const file = await confinedPathOf(context, key);
  const meta = metaPathOf(context, key);
  try {
    await unlink(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  await rm(meta, { force: true });
  await pruneEmpty(dirname(file), context.root);
  await pruneEmpty(dirname(meta), join(context.root, META));
}

export async function copy(context: LocalContext, fromKey: string, toKey: string): Promise<void> {
  const source = await confinedPathOf(context, fromKey);
  const target = await confinedPathOf(context, toKey);
  const staging = await stagingFileOf(context);
  try {
    await copyFile(source, staging);
  } catch (error) {
    await rm(staging, { force: true });
    if (isMissing(error)) throw new ObjectNotFoundError(fromKey);
    throw error;
  }
  const copied = (await head(context, fromKey)) ?? (await hashFile(staging));
  await placeFile(context, staging, toKey, target, copied);
}

export async function move(context: LocalContext, fromKey: string, toKey: string): Promise<void> {
  const source = await confinedPathOf(context, fromKey);
  const target = await confinedPathOf(context, toKey);
  const moved = await head(context, fromKey);
  if (!moved) throw new ObjectNotFoundError(fromKey);
  await placeFile(context, source, toKey, target, moved);
  await rm(metaPathOf(context, fromKey), { force: true });
  await pruneEmpty(dirname(source), context.root);
}
