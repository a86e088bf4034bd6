import { lstat, mkdir, rm } from 'node:fs/promises';
import { UnsafeKeyError } from '../driver';
import { folderPathOf, isMissing, metaFolderOf, type LocalContext } from './root';

export async function folderExists(context: LocalContext, folder: string): Promise<boolean> {
  try {
    return (await lstat(await folderPathOf(context, folder))).isDirectory();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

export async function makeFolder(context: LocalContext, folder: string): Promise<void> {
  await mkdir(await folderPathOf(context, folder), { recursive: true });
}

/** Removes the folder and the metadata of everything in it. */
export async function removeFolder(context: LocalContext, folder: string): Promise<void> {
  if (folder === '') throw new UnsafeKeyError(folder);
  await rm(await folderPathOf(context, folder), { recursive: true, force: true });
  await rm(metaFolderOf(context, folder), { recursive: true, force: true });
}
