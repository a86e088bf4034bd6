import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AppDeps } from '../../context';
import type { DavLocksTable } from '../../db/schema';
import { isWithin, type FsPath } from '../fs/paths';
import { inTree } from './tree-sql';

export type DavLock = Selectable<DavLocksTable>;

/** Longest a lock lives without a refresh, whatever the client asks (`Infinite` included). */
export const MAX_LOCK_SECONDS = 7 * 24 * 3600;
export const DEFAULT_LOCK_SECONDS = 3600;

/** `Timeout: Second-600, Infinite`: the first value understood, capped. */
export function timeoutOf(header: string | undefined): number {
  for (const value of (header ?? '').split(',').map((part) => part.trim().toLowerCase())) {
    if (value === 'infinite') return MAX_LOCK_SECONDS;
    const seconds = /^second-(\d+)$/.exec(value)?.[1];
    if (seconds) return Math.max(1, Math.min(Number(seconds), MAX_LOCK_SECONDS));
  }
  return DEFAULT_LOCK_SECONDS;
}

/** `/a/b/c` → `/`, `/a`, `/a/b`, `/a/b/c`. */
const selfAndAncestors = (path: FsPath) => path.segments.map((_, index) => `/${path.segments.slice(0, index + 1).join('/')}`).concat('/');

const live = (deps: AppDeps) => deps.db.selectFrom('dav_locks').selectAll().where('expires_at', '>', deps.now().toISOString());

const covers = (lock: DavLock, path: FsPath) => lock.path === path.text || (lock.depth === 'infinity' && isWithin(path, lock.path));

/** The locks on `path` itself and the depth-infinity locks of the folders above it. */
export async function locksCovering(deps: AppDeps, path: FsPath): Promise<DavLock[]> {
  const rows = await live(deps).where('path', 'in', selfAndAncestors(path)).execute();
  return rows.filter((lock) => covers(lock, path));
}

/** `locksCovering` of a folder and each of its members, in two queries (PROPFIND Depth 1 of thousands of files). */
export async function locksCoveringEach(deps: AppDeps, folder: FsPath, paths: FsPath[]): Promise<DavLock[][]> {
  const rows = [...(await live(deps).where('path', 'in', selfAndAncestors(folder)).execute()), ...(await locksInTree(deps, folder))];
  const unique = [...new Map(rows.map((lock) => [lock.token, lock])).values()];
  return paths.map((path) => unique.filter((lock) => covers(lock, path)));
}

/** Every lock on `path` or below it. */
export const locksInTree = (deps: AppDeps, path: FsPath): Promise<DavLock[]> => live(deps).where(inTree(path.text)).execute();

export async function createLock(
  deps: AppDeps,
  lock: Pick<DavLock, 'path' | 'depth' | 'scope' | 'owner' | 'timeout_seconds' | 'created_by'>,
): Promise<DavLock> {
  await deps.db.deleteFrom('dav_locks').where('expires_at', '<=', deps.now().toISOString()).execute();
  const row: DavLock = { ...lock, token: `opaquelocktoken:${randomUUID()}`, expires_at: expiry(deps, lock.timeout_seconds) };
  await deps.db.insertInto('dav_locks').values(row).execute();
  return row;
}

export async function refreshLock(deps: AppDeps, lock: DavLock, seconds: number): Promise<DavLock> {
  const refreshed = { ...lock, timeout_seconds: seconds, expires_at: expiry(deps, seconds) };
  await deps.db.updateTable('dav_locks').set({ timeout_seconds: seconds, expires_at: refreshed.expires_at }).where('token', '=', lock.token).execute();
  return refreshed;
}

export async function removeLock(deps: AppDeps, token: string): Promise<void> {
  await deps.db.deleteFrom('dav_locks').where('token', '=', token).execute();
}

/** A resource that went (DELETE, the source of a MOVE) takes its locks and those below it along. */
export async function dropLocks(deps: AppDeps, path: FsPath): Promise<void> {
  await deps.db.deleteFrom('dav_locks').where(inTree(path.text)).execute();
}

/** Seconds a lock has left, for `DAV:timeout`. */
export const secondsLeft = (deps: AppDeps, lock: DavLock) => Math.max(0, Math.round((Date.parse(lock.expires_at) - deps.now().getTime()) / 1000));

const expiry = (deps: AppDeps, seconds: number) => new Date(deps.now().getTime() + seconds * 1000).toISOString();
