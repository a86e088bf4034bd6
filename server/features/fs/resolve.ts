import type { AppDeps, Principal } from '../../context';
import { FS_NAME_MAX_BYTES } from '../../../contract/fs-paths';
import { ApiError, badInput, nameTooLong } from '../../errors';
import { visibleMounts, type MountRow } from '../mounts/mounts';
import { findStorageConfig } from '../storages/configs';
import { MAX_KEY_BYTES, type FolderListing, type StorageDriver } from '../../storage/driver';
import { folderSegments, isReservedAreaKey } from '../../storage/keys';
import { driverFor, keyFolderOf, type StorageConfigRow } from '../../storage/registry';
import { isWithin, normalizePath, outsideBasePath, pathOfSegments, ROOT, type FsPath } from './paths';

/** Who is asking, and the part of the tree they may touch. */
export interface FsCaller {
  principal: Principal;
  /** `/` for admins; the key's `basic_path`, normalised, for keys. */
  basePath: FsPath;
}

export function callerOf(principal: Principal): FsCaller {
  return { principal, basePath: principal.kind === 'apiKey' ? normalizePath(principal.basicPath) : ROOT };
}

/** A path inside a mount, with everything needed to reach its storage. */
export interface MountTarget {
  kind: 'mount';
  path: FsPath;
  mount: MountRow;
  config: StorageConfigRow;
  driver: StorageDriver;
  /** Segments below the mount point. */
  inner: string[];
  /** The config's folder: where the mount's root lies in the storage. */
  rootSegments: string[];
  /** The storage key (or folder key) of the path: the config's folder, then the inner segments. */
  key: string;
}

/** A folder above mount points (`/`, or `/a` for a mount at `/a/b`): it only lists what lies below. */
export interface VirtualTarget {
  kind: 'virtual';
  path: FsPath;
  /** Mount points reached through it, for its listing. */
  mounts: MountRow[];
}

export type FsTarget = MountTarget | VirtualTarget;

/**
 * What a call may do with a path: `list` also admits the folders above a key's base path (their listing is cut
 * down to the branch that leads to it); everything else must be the base path or below it.
 */
export type Access = 'list' | 'use';

/** The mount of `path`: the deepest visible mount point that holds it. */
const mountHolding = (mounts: MountRow[], path: FsPath) =>
  mounts.filter((mount) => isWithin(path, mount.mount_path)).sort((a, b) => b.mount_path.length - a.mount_path.length)[0];

export async function resolveTarget(deps: AppDeps, caller: FsCaller, path: FsPath, access: Access): Promise<FsTarget> {
  const allowed = isWithin(path, caller.basePath) || (access === 'list' && isWithin(caller.basePath, path));
  if (!allowed) throw outsideBasePath(caller.basePath.text);
  const mounts = await visibleMounts(deps, caller.principal);
  const mount = mountHolding(mounts, path);
  if (mount) return mountTarget(deps, mount, path);
  const below = mounts.filter((candidate) => isWithin(candidate.mount_path, path));
  if (below.length === 0) throw new ApiError(404, 'fs_not_found', { path: path.text });
  return { kind: 'virtual', path, mounts: below };
}

export async function mountTarget(deps: AppDeps, mount: MountRow, path: FsPath): Promise<MountTarget> {
  const config = await findStorageConfig(deps.db, mount.storage_config_id);
  if (!config) throw new ApiError(404, 'storage_config_not_found');
  const base = { mount, config, driver: driverFor(deps, config), rootSegments: folderSegments(keyFolderOf(config), 'default_folder') };
  return withInner(base, path.segments.slice(segmentsOf(mount.mount_path).length));
}

const segmentsOf = (mountPath: string) => mountPath.split('/').filter(Boolean);

/**
 * The target of another path in the same mount, by its segments below the mount point. Every mount target is made
 * here, so this is where the reserved areas are refused (as LOCAL's `.staging` is): file shares' objects and expense
 * receipts are no mount's.
 */
export function withInner(target: Omit<MountTarget, 'kind' | 'path' | 'inner' | 'key'>, inner: string[]): MountTarget {
  const key = [...target.rootSegments, ...inner].join('/');
  if (isReservedAreaKey(key)) throw badInput('path', 'invalid_path');
  assertKeyFits(key, inner.at(-1) ?? '');
  return {
    kind: 'mount',
    mount: target.mount,
    config: target.config,
    driver: target.driver,
    rootSegments: target.rootSegments,
    inner,
    key,
    path: pathOfSegments([...segmentsOf(target.mount.mount_path), ...inner]),
  };
}

/**
 * A key longer than any storage holds (S3's 1024 bytes, which every driver keeps) is refused here, before a
 * driver sees it, with the longest last name that would fit in its folder.
 */
function assertKeyFits(key: string, name: string) {
  const keyBytes = Buffer.byteLength(key);
  if (keyBytes <= MAX_KEY_BYTES) return;
  const room = MAX_KEY_BYTES - (keyBytes - Buffer.byteLength(name));
  throw room > 0 ? nameTooLong('path', Math.min(room, FS_NAME_MAX_BYTES)) : badInput('path', 'too_long');
}

/** A folder's entries, or with `recursive` its whole tree, as the mount sees them: without the reserved areas. */
export async function listMount(target: MountTarget, recursive = false): Promise<FolderListing> {
  const listing = await (recursive ? target.driver.listTree(target.key) : target.driver.list(target.key));
  return {
    folders: listing.folders.filter((key) => !isReservedAreaKey(key)),
    objects: listing.objects.filter((object) => !isReservedAreaKey(object.key)),
  };
}

/** The segments below the mount point of one of the mount's storage keys (from a listing). */
export const innerOfKey = (target: MountTarget, key: string): string[] => (key === '' ? [] : key.split('/').slice(target.rootSegments.length));

/** A target that must be inside a mount (every write, every file). */
export async function resolveInMount(deps: AppDeps, caller: FsCaller, path: FsPath): Promise<MountTarget> {
  const target = await resolveTarget(deps, caller, path, 'use');
  if (target.kind === 'virtual') throw new ApiError(403, 'fs_virtual_read_only', { path: path.text });
  return target;
}

