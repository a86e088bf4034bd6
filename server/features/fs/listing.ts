import type { FsEntry, FsItem, FsListing } from '../../../contract/fs';
import { mimeTypeOf } from '../../../contract/mime';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { directoryCacheOf } from './directory-cache';
import { visibleMounts } from '../mounts/mounts';
import type { FolderListing, ListedObject } from '../../storage/driver';
import { displayPath, isWithin, nameOf, pathOfSegments, type FsPath } from './paths';
import { listMount, resolveTarget, type FsCaller, type MountTarget, type VirtualTarget } from './resolve';
import { onStorage } from './storage-errors';

// One collator for every comparison: localeCompare with options builds a new one per call (seconds for 5,000 names).
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const byName = (a: FsItem, b: FsItem) => collator.compare(a.name, b.name) || (a.name < b.name ? -1 : 1);

/** A folder's item by its path's text and name (a listing's thousands of children need no FsPath each). */
const folderItemAt = (text: string, name: string, isVirtual: boolean): FsItem => ({
  name,
  path: displayPath(text, true),
  isDirectory: true,
  isVirtual,
  size: 0,
  modified: null,
  mimetype: null,
  etag: null,
});

const folderItem = (path: FsPath, isVirtual: boolean): FsItem => folderItemAt(path.text, nameOf(path), isVirtual);

const fileItemAt = (text: string, name: string, object: Pick<ListedObject, 'size' | 'etag' | 'modified'>): FsItem => ({
  name,
  path: text,
  isDirectory: false,
  isVirtual: false,
  size: object.size,
  modified: object.modified?.toISOString() ?? null,
  mimetype: mimeTypeOf(name),
  etag: object.etag,
});

const byCodeUnits = (a: FsItem, b: FsItem) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
/**
 * By name as people sort them. The names are put in plain code-unit order first, which is the collator's order for
 * long stretches of most folders (numbered names, one case): the collator's sort then finds those runs and merges
 * them, comparing about once per name rather than about log2(n) times.
 */
const sortByName = (items: FsItem[]) => items.sort(byCodeUnits).sort(byName);

/** Folders first, then files, each by name as people sort them (`file2` before `file10`). */
const sorted = (items: FsItem[]) => [...sortByName(items.filter((i) => i.isDirectory)), ...sortByName(items.filter((i) => !i.isDirectory))];

/** What a key may see of a folder above its base path: only the branch that leads down to it. */
const onBranch = (caller: FsCaller, item: FsItem) => {
  const path = item.path.replace(/\/$/, '') || '/';
  return isWithin(path, caller.basePath) || isWithin(caller.basePath, path);
};

/** The child entries of a virtual folder: its mount points and the virtual folders on the way to deeper ones. */
function virtualItems(target: VirtualTarget): FsItem[] {
  const seen = new Set<string>();
  const items: FsItem[] = [];
  for (const mount of target.mounts) {
    const segments = mount.mount_path.split('/').filter(Boolean);
    const child = pathOfSegments(segments.slice(0, target.path.segments.length + 1));
    if (seen.has(child.text)) continue;
    seen.add(child.text);
    items.push(folderItem(child, true));
  }
  return items; // mounts come in sort order; keep it
}

/**
 * How a listing is asked for: whole, as the first page of several, or as a page after the first (which continues
 * the listing the first page was read from, even on a mount that caches nothing).
 */
export type ListingRead = 'whole' | 'firstPage' | 'nextPage';

/** One folder's listing from storage, or the mount's cache when fresh (unless `refresh`). */
export async function folderListing(deps: AppDeps, target: MountTarget, refresh: boolean, read: ListingRead = 'whole'): Promise<FolderListing> {
  const cache = directoryCacheOf(deps, deps.now);
  const cacheKey = target.inner.join('/');
  if (!refresh) {
    const cached = cache.get(target.mount.id, cacheKey, target.mount.cache_version, read === 'nextPage');
    if (cached) return cached;
  }
  const listing = await onStorage(target.path.text, () => listMount(target));
  if (listing.folders.length === 0 && listing.objects.length === 0 && target.inner.length > 0) {
    await assertFolder(target);
  }
  cache.set(target.mount.id, cacheKey, listing, target.mount.cache_ttl, target.mount.cache_version, read !== 'whole');
  return listing;
}

/** 404 when nothing is there, 400 when it is a file. */
async function assertFolder(target: MountTarget) {
  if (await onStorage(target.path.text, () => target.driver.folderExists(target.key))) return;
  const file = await onStorage(target.path.text, () => target.driver.stat(target.key));
  if (file) throw new ApiError(400, 'fs_not_a_folder', { path: target.path.text }, { field: 'path', issue: 'not_a_folder' });
  throw new ApiError(404, 'fs_not_found', { path: target.path.text });
}

export async function listFolder(deps: AppDeps, caller: FsCaller, path: FsPath, refresh = false, read: ListingRead = 'whole'): Promise<FsListing> {
  const target = await resolveTarget(deps, caller, path, 'list');
  if (target.kind === 'virtual') {
    const items = virtualItems(target).filter((item) => onBranch(caller, item));
    return { path: displayPath(path, true), type: 'directory', isVirtual: true, mountId: null, items };
  }
  const listing = await folderListing(deps, target, refresh, read);
  const stored = storedItems(target, listing);
  // Mount points nested right below this folder show as virtual folders. Each page of a large folder asks again:
  // none of this may cost a pass over its 100,000 items unless there is something to add or hide.
  const nested = await nestedMountItems(deps, caller, target);
  const names = nested.length > 0 ? new Set(stored.map((item) => item.name)) : undefined;
  const added = nested.filter((item) => !names?.has(item.name));
  const items = added.length > 0 ? sorted([...stored, ...added]) : stored;
  // Inside the key's base path every child is on its branch; only a folder above it is cut down.
  const visible = isWithin(path, caller.basePath) ? items : items.filter((item) => onBranch(caller, item));
  return { path: displayPath(path, true), type: 'directory', isVirtual: false, mountId: target.mount.id, items: visible };
}

/**
 * The storage's entries of a folder as sorted items, kept as long as the cached listing they come from: the pages
 * of a folder of 100,000 files then cost a slice each, not a sort each.
 */
const storedItemsOf = new WeakMap<FolderListing, FsItem[]>();
function storedItems(target: MountTarget, listing: FolderListing): FsItem[] {
  let items = storedItemsOf.get(listing);
  if (!items) {
    // The storage lists the folder's own children: each one's path is the folder's and its key's last name.
    const folder = target.path.text === '/' ? '' : target.path.text;
    const nameOfKey = (key: string) => key.slice(key.lastIndexOf('/') + 1);
    items = sorted([
      ...listing.folders.map((key) => folderItemAt(`${folder}/${nameOfKey(key)}`, nameOfKey(key), false)),
      ...listing.objects.map((object) => fileItemAt(`${folder}/${nameOfKey(object.key)}`, nameOfKey(object.key), object)),
    ]);
    storedItemsOf.set(listing, items);
  }
  return items;
}

/** One page of a listing: `limit` items from `offset`, with the folder's total and where the next page starts. */
export function listingPage(listing: FsListing, offset: number, limit: number): FsListing {
  const end = offset + limit;
  return { ...listing, items: listing.items.slice(offset, end), total: listing.items.length, nextOffset: end < listing.items.length ? end : null };
}

async function nestedMountItems(deps: AppDeps, caller: FsCaller, target: MountTarget): Promise<FsItem[]> {
  const depth = target.path.segments.length + 1;
  return (await visibleMounts(deps, caller.principal))
    .filter((mount) => mount.id !== target.mount.id && isWithin(mount.mount_path, target.path) && mount.mount_path !== target.path.text)
    .map((mount) => folderItem(pathOfSegments(mount.mount_path.split('/').filter(Boolean).slice(0, depth)), true));
}

const entryOf = (item: FsItem, mountId: string | null): FsEntry => ({
  ...item,
  contentType: item.mimetype,
  type: item.isDirectory ? 'directory' : 'file',
  mountId,
});

/** `get`: one file or folder. */
export async function statPath(deps: AppDeps, caller: FsCaller, path: FsPath): Promise<FsEntry> {
  const target = await resolveTarget(deps, caller, path, 'use');
  if (target.kind === 'virtual') return entryOf(folderItem(path, true), null);
  if (target.inner.length === 0) return entryOf(folderItem(path, true), target.mount.id);
  const file = await onStorage(path.text, () => target.driver.stat(target.key));
  if (file) return entryOf(fileItemAt(path.text, nameOf(path), file), target.mount.id);
  if (await onStorage(path.text, () => target.driver.folderExists(target.key))) {
    return entryOf(folderItem(path, false), target.mount.id);
  }
  throw new ApiError(404, 'fs_not_found', { path: path.text });
}
