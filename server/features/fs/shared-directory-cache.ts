import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { directoryCacheOf } from './directory-cache';
import { indexWrites } from '../search/indexer';

/**
 * Directory caches are per instance; the database keeps one version number per mount, which every write through
 * any instance bumps after changing the storage. A listing is tagged with the version read before it was taken
 * (the mount row read when the path was resolved), and served only while the mount still has that version.
 */
async function bumpVersion(db: DB, mountId: string): Promise<number | undefined> {
  const row = await db
    .updateTable('mounts')
    .set((eb) => ({ cache_version: eb('cache_version', '+', 1) }))
    .where('id', '=', mountId)
    .returning('cache_version')
    .executeTakeFirst();
  return row?.cache_version;
}

/**
 * After writes to `folders` (paths inside the mount, '' its root): every instance drops its listings of the mount;
 * this one drops only what the writes touched (see DirectoryCache.invalidate) and keeps the rest; the mount's search
 * index queues them to be read again.
 */
export async function invalidateFolders(deps: AppDeps, mountId: string, folders: Iterable<string>): Promise<void> {
  const changed = [...folders];
  const version = await bumpVersion(deps.db, mountId);
  // No await from here on: a listing of this instance cannot be stored between the two steps.
  const cache = directoryCacheOf(deps, deps.now);
  for (const folder of changed) cache.invalidate(mountId, folder);
  if (version !== undefined) cache.carryOver(mountId, version);
  // The search index reads the changed folders again (a search waits for them, so a deleted file is gone at once).
  await indexWrites(deps, mountId, changed);
}

/** Drops a mount's listings on every instance; answers how many this one held. */
export async function clearMountCache(deps: AppDeps, mountId: string): Promise<number> {
  await bumpVersion(deps.db, mountId);
  return directoryCacheOf(deps, deps.now).clear(mountId);
}
