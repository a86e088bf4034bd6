import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FolderListing, ListedObject } from '../driver';
import { rememberedHead } from './disk';
import { folderPathOf, isMissing, META, metaFolderOf, metaPathOf, STAGING, type LocalContext } from './root';
import { listTreeByLevels } from '../list-tree';

/**
 * Which metadata files a folder has, from one read of its metadata folder: a folder of 100,000 files put there by
 * hand would otherwise cost 100,000 failed opens. A long name's sidecar (one folder further down) is always tried.
 */
async function sidecarsOf(context: LocalContext, folder: string): Promise<(key: string) => boolean> {
  const metaFolder = folder === '' ? join(context.root, META) : metaFolderOf(context, folder);
  const names = new Set(await readdir(metaFolder).catch(() => []));
  return (key) => {
    const sidecar = metaPathOf(context, key);
    return dirname(sidecar) !== metaFolder || names.has(basename(sidecar));
  };
}

/** What a listing says of a file: size and time from the disk, the ETag only when its metadata is at hand. */
async function listedFile(context: LocalContext, key: string, file: string, hasSidecar: (key: string) => boolean): Promise<ListedObject | undefined> {
  let info;
  try {
    info = await lstat(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!info.isFile()) return undefined;
  // Without metadata the ETag stays unknown: `stat` hashes the file when someone asks for it.
  const etag = hasSidecar(key) ? ((await rememberedHead(context, key, info.size))?.etag ?? null) : null;
  return { key, size: info.size, etag, modified: info.mtime };
}

/** Entries of one folder on disk, links never followed, LOCAL's own dot-folders hidden. */
async function readFolder(context: LocalContext, folder: string, dir: string): Promise<FolderListing> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return { folders: [], objects: [] };
    throw error;
  }
  const keyOf = (name: string) => (folder === '' ? name : `${folder}/${name}`);
  const hasSidecar = await sidecarsOf(context, folder);
  const folders: string[] = [];
  const files: Promise<ListedObject | undefined>[] = [];
  for (const entry of entries) {
    if (folder === '' && (entry.name === STAGING || entry.name === META)) continue;
    if (entry.isDirectory()) folders.push(keyOf(entry.name));
    else if (entry.isFile()) files.push(listedFile(context, keyOf(entry.name), join(dir, entry.name), hasSidecar));
  }
  const objects = (await Promise.all(files)).filter((object): object is ListedObject => object !== undefined);
  return { folders, objects };
}

export async function list(context: LocalContext, folder: string): Promise<FolderListing> {
  return readFolder(context, folder, await folderPathOf(context, folder));
}

export function listTree(context: LocalContext, folder: string): Promise<FolderListing> {
  return listTreeByLevels((current) => list(context, current), folder);
}
