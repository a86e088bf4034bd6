import type { FolderListing } from './driver';

/** Every folder and object below `folder`, by listing one level after another (for drivers that list by level). */
export async function listTreeByLevels(list: (folder: string) => Promise<FolderListing>, folder: string): Promise<FolderListing> {
  const all: FolderListing = { folders: [], objects: [] };
  const walk = async (current: string) => {
    const level = await list(current);
    all.objects.push(...level.objects);
    for (const sub of level.folders) {
      all.folders.push(sub);
      await walk(sub);
    }
  };
  await walk(folder);
  return all;
}
