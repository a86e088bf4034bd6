import { forEachAtOnce } from '../../storage/at-once';
import type { MountTarget } from '../fs/resolve';
import { onStorage } from '../fs/storage-errors';
import { parentTarget } from '../fs/writes';

/** Folders listed at once while a job decides its names. */
const LISTS_AT_ONCE = 4;

/**
 * What the storage has at each target, from one listing of each target folder instead of a look (two requests)
 * per file. A folder that cannot be listed fails the lookup.
 */
export async function listedKinds(targets: readonly MountTarget[]): Promise<Map<MountTarget, 'file' | 'folder' | 'none'>> {
  const byFolder = new Map<string, MountTarget[]>();
  for (const target of targets) {
    const folder = `${target.config.id}\n${parentTarget(target).key}`;
    const group = byFolder.get(folder);
    if (group) group.push(target);
    else byFolder.set(folder, [target]);
  }
  const kinds = new Map<MountTarget, 'file' | 'folder' | 'none'>();
  await forEachAtOnce([...byFolder.values()], LISTS_AT_ONCE, async (group) => {
    const folder = parentTarget(group[0] as MountTarget);
    const listing = await onStorage(folder.path.text, () => folder.driver.list(folder.key));
    const files = new Set(listing.objects.map((object) => object.key));
    const folders = new Set(listing.folders);
    for (const target of group) kinds.set(target, files.has(target.key) ? 'file' : folders.has(target.key) ? 'folder' : 'none');
  });
  return kinds;
}
