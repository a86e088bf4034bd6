import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { FS_HASH_MAX_BYTES, type FsExistingEntry, type FsExists } from '../../../contract/fs';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { forEachAtOnce } from '../../storage/at-once';
import { normalizePath } from './paths';
import { resolveInMount, type FsCaller, type MountTarget } from './resolve';
import { onStorage } from './storage-errors';
import { kindAt } from './writes';

/** Paths looked up at once: each is one or two storage requests. */
const PATHS_AT_ONCE = 8;

/** Whether hashing a file is cheap: a read from the server's own disk, not a download from a remote storage. */
const hashable = (target: MountTarget, size: number) => target.driver.type === 'LOCAL' && size <= FS_HASH_MAX_BYTES;

async function sha256Of(target: MountTarget): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(await target.driver.get(target.key), hash);
  return hash.digest('hex');
}

/** What is at one path, or undefined: nothing, or a path the caller may not see (never told apart). */
async function entryAt(deps: AppDeps, caller: FsCaller, raw: string, hashes: boolean): Promise<FsExistingEntry | undefined> {
  let target: MountTarget;
  try {
    target = await resolveInMount(deps, caller, normalizePath(raw));
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return undefined;
    throw error;
  }
  const kind = await kindAt(target);
  if (kind === 'none') return undefined;
  if (kind === 'folder') return { path: target.path.text, kind, size: 0, etag: null };
  const object = await onStorage(target.path.text, () => target.driver.stat(target.key));
  if (!object) return undefined;
  const entry: FsExistingEntry = { path: target.path.text, kind, size: object.size, etag: object.etag ?? null };
  if (hashes && hashable(target, object.size)) entry.sha256 = await onStorage(target.path.text, () => sha256Of(target));
  return entry;
}

/** `POST /fs/exists`: what is at each path now, in the order asked (see contract/fs.ts fsExistsSchema). */
export async function existingAt(deps: AppDeps, caller: FsCaller, paths: string[], hashes: boolean): Promise<FsExists> {
  const found: (FsExistingEntry | undefined)[] = [];
  await forEachAtOnce([...paths.entries()], PATHS_AT_ONCE, async ([index, path]) => {
    found[index] = await entryAt(deps, caller, path, hashes);
  });
  return { existing: found.filter((entry) => entry !== undefined) };
}
