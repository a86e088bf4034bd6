import { hash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { bareEtag, ObjectNotFoundError, type ByteRange, type ListedObject, type ObjectHead } from '../driver';
import { childPathOf, parentPathOf, PARTIAL_PREFIX, remotePathOf, type RemoteContext } from './context';
import { RemoteNotFoundError, type RemoteEntry } from './remote-fs';

/**
 * The server's ETag when it gives one (WebDAV), else the MD5 hex of size and modification time: stable while the
 * file is unchanged, and different after almost any rewrite (one of the same size within the server's time
 * resolution keeps it).
 */
export function etagOf(entry: RemoteEntry): string {
  if (entry.etag) return bareEtag(entry.etag);
  return hash('md5', `${entry.size}:${entry.modified?.getTime() ?? ''}`, 'hex');
}

/** Makes a folder and every missing folder above it; a stat first, so that existing parents cost one request. */
export async function ensureFolder(context: RemoteContext, path: string): Promise<void> {
  if (path === '/') return;
  const found = await context.fs.stat(path);
  if (found?.kind === 'folder') return;
  await ensureFolder(context, parentPathOf(path));
  try {
    await context.fs.mkdir(path);
  } catch (error) {
    // Two writes into one new folder both find it missing; the second one's mkdir fails on the first one's folder.
    if ((await context.fs.stat(path))?.kind !== 'folder') throw error;
  }
}

export async function stat(context: RemoteContext, key: string): Promise<ListedObject | undefined> {
  const entry = await context.fs.stat(remotePathOf(context, key));
  if (entry?.kind !== 'file') return undefined;
  return { key, size: entry.size, etag: etagOf(entry), modified: entry.modified };
}

export async function head(context: RemoteContext, key: string): Promise<ObjectHead | undefined> {
  const found = await stat(context, key);
  return found && { size: found.size, etag: found.etag ?? '' };
}

/** A new hidden name beside the object `key`, its folder made first: where a write goes until it is whole. */
export async function partialPathOf(context: RemoteContext, key: string): Promise<string> {
  const target = remotePathOf(context, key);
  await ensureFolder(context, parentPathOf(target));
  return childPathOf(parentPathOf(target), `${PARTIAL_PREFIX}${randomUUID()}`);
}

/** Renames a whole partial file into place as `key`; a failed rename removes the partial. */
export async function placePartial(context: RemoteContext, partial: string, key: string): Promise<ObjectHead> {
  try {
    await context.fs.rename(partial, remotePathOf(context, key));
  } catch (error) {
    await context.fs.remove(partial).catch(() => undefined);
    throw error;
  }
  const stored = await head(context, key);
  if (!stored) throw new ObjectNotFoundError(key);
  return stored;
}

/** Written under a hidden name beside the target and renamed into place: the object appears whole or not at all. */
export async function put(context: RemoteContext, key: string, body: Readable): Promise<ObjectHead> {
  const partial = await partialPathOf(context, key);
  try {
    await context.fs.write(partial, body);
  } catch (error) {
    body.destroy();
    await context.fs.remove(partial).catch(() => undefined);
    throw error;
  }
  return placePartial(context, partial, key);
}

export async function get(context: RemoteContext, key: string, range?: ByteRange): Promise<Readable> {
  try {
    return await context.fs.read(remotePathOf(context, key), range);
  } catch (error) {
    if (error instanceof RemoteNotFoundError) throw new ObjectNotFoundError(key);
    throw error;
  }
}

export async function deleteObject(context: RemoteContext, key: string): Promise<void> {
  await context.fs.remove(remotePathOf(context, key));
}

async function assertFile(context: RemoteContext, key: string): Promise<void> {
  if (!(await stat(context, key))) throw new ObjectNotFoundError(key);
}

/** The server's own copy where the protocol has one (WebDAV COPY), else the bytes streamed through this server. */
export async function copy(context: RemoteContext, fromKey: string, toKey: string): Promise<void> {
  const from = remotePathOf(context, fromKey);
  const to = remotePathOf(context, toKey);
  await assertFile(context, fromKey);
  if (context.fs.copy) {
    await ensureFolder(context, parentPathOf(to));
    await context.fs.copy(from, to);
    return;
  }
  await put(context, toKey, await get(context, fromKey));
}

export async function move(context: RemoteContext, fromKey: string, toKey: string): Promise<void> {
  const from = remotePathOf(context, fromKey);
  const to = remotePathOf(context, toKey);
  await assertFile(context, fromKey);
  await ensureFolder(context, parentPathOf(to));
  await context.fs.rename(from, to);
}
