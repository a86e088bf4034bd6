import type { FsItem } from '../../../contract/fs';
import { mimeTypeOf } from '../../../contract/mime';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { listFolder, statPath } from '../fs/listing';
import { isWithin, nameOf, normalizePath, type FsPath } from '../fs/paths';
import type { FsCaller, MountTarget } from '../fs/resolve';
import { kindAt, parentTarget } from '../fs/writes';
import { DavError } from './errors';

/** What WebDAV knows of a file or folder: enough for every live property and for `If` conditions. */
export interface DavResource {
  path: FsPath;
  isFolder: boolean;
  size: number;
  /** Without quotes; files only. */
  etag: string | null;
  modified: Date | null;
  contentType: string;
}

const fromItem = (item: Pick<FsItem, 'isDirectory' | 'size' | 'etag' | 'modified' | 'mimetype'>, path: FsPath): DavResource => {
  const modified = item.modified ? new Date(item.modified) : null;
  return {
    path,
    isFolder: item.isDirectory,
    size: item.isDirectory ? 0 : item.size,
    // A file the storage keeps no checksum for (put there by hand) still needs a validator sync tools can compare.
    etag: item.isDirectory ? null : (item.etag ?? `${item.size.toString(16)}-${(modified?.getTime() ?? 0).toString(16)}`),
    modified,
    contentType: item.isDirectory ? 'httpd/unix-directory' : (item.mimetype ?? mimeTypeOf(nameOf(path))),
  };
};

/** A folder above the caller's base path: it exists only as the way down. */
const isAboveBase = (caller: FsCaller, path: FsPath) => path.text !== caller.basePath.text && isWithin(caller.basePath, path);

/** The resource at `path`, or undefined when nothing is there. Refusals (outside the base path) still throw. */
export async function resourceAt(deps: AppDeps, caller: FsCaller, path: FsPath): Promise<DavResource | undefined> {
  if (isAboveBase(caller, path)) return fromItem({ isDirectory: true, size: 0, etag: null, modified: null, mimetype: null }, path);
  try {
    return fromItem(await statPath(deps, caller, path), path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** The members of a folder. */
export async function membersOf(deps: AppDeps, caller: FsCaller, folder: FsPath): Promise<DavResource[]> {
  const listing = await listFolder(deps, caller, folder);
  return listing.items.map((item) => fromItem(item, normalizePath(item.path)));
}

/** 409 when the folder a new resource would go in is missing (RFC 4918: PUT, MKCOL, COPY/MOVE targets, LOCK). */
export async function assertParentFolder(target: MountTarget): Promise<void> {
  if ((await kindAt(parentTarget(target))) !== 'folder') throw new DavError(409);
}
