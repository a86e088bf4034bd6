import { UnsafeKeyError, type FolderListing } from '../driver';
import { remoteFolderOf, type RemoteContext } from './context';
import { usableEntries } from './names';
import { ensureFolder, etagOf } from './objects';
import { listTreeByLevels } from '../list-tree';

export async function list(context: RemoteContext, folder: string): Promise<FolderListing> {
  const keyOf = (name: string) => (folder === '' ? name : `${folder}/${name}`);
  const entries = usableEntries(context, folder, await context.fs.list(remoteFolderOf(context, folder)), keyOf);
  return {
    folders: entries.filter((entry) => entry.kind === 'folder').map((entry) => keyOf(entry.name)),
    objects: entries
      .filter((entry) => entry.kind === 'file')
      .map((entry) => ({ key: keyOf(entry.name), size: entry.size, etag: etagOf(entry), modified: entry.modified })),
  };
}

export function listTree(context: RemoteContext, folder: string): Promise<FolderListing> {
  return listTreeByLevels((current) => list(context, current), folder);
}

export async function folderExists(context: RemoteContext, folder: string): Promise<boolean> {
  const path = remoteFolderOf(context, folder);
  if (path === '/') return true;
  return (await context.fs.stat(path))?.kind === 'folder';
}

export async function makeFolder(context: RemoteContext, folder: string): Promise<void> {
  await ensureFolder(context, remoteFolderOf(context, folder));
}

export async function removeFolder(context: RemoteContext, folder: string): Promise<void> {
  if (folder === '') throw new UnsafeKeyError(folder);
  await context.fs.removeFolder(remoteFolderOf(context, folder));
}

/** Lists the base folder, which must exist: wrong credentials, an unreachable server or a missing folder throw. */
export async function checkAccess(context: RemoteContext): Promise<void> {
  const base = remoteFolderOf(context, '');
  await context.fs.list(base);
  if (!(await folderExists(context, ''))) throw new BaseFolderMissingError();
}

export class BaseFolderMissingError extends Error {
  constructor() {
    super('The base folder does not exist on the server');
    this.name = 'BaseFolderMissingError';
  }
}
