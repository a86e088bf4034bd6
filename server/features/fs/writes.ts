import { Readable } from 'node:stream';
import type { FsBatchResult, FsUploadResult } from '../../../contract/fs';
import { mimeTypeOf } from '../../../contract/mime';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { putWithinBudget } from '../../forms/budgeted-put';
import { invalidateFolders } from './shared-directory-cache';
import { assertFits, byteBudget, uploadLimits, type UploadLimits } from '../storages/upload-limits';
import { translate, type Lang } from '../../i18n/messages';
import { cleanContentType } from '../../storage/http-headers';
import { checkName, childOf, isWithin, nameOf, parentOf, type FsPath } from './paths';
import { innerOfKey, listMount, resolveInMount, withInner, type FsCaller, type MountTarget } from './resolve';
import { onStorage, storageError } from './storage-errors';

/** Drops the cached listings a write to `target` changed, on every instance (call it after the storage changed). */
export const invalidate = (deps: AppDeps, target: MountTarget): Promise<void> =>
  invalidateFolders(deps, target.mount.id, [target.inner.join('/')]);

/** The folder a target lies in (the mount's root for a path right below it). */
export const parentTarget = (target: MountTarget) => withInner(target, target.inner.slice(0, -1));

/** What is at a target: a file, a folder, or nothing. */
export async function kindAt(target: MountTarget): Promise<'file' | 'folder' | 'none'> {
  if (target.inner.length === 0) return 'folder';
  if (await onStorage(target.path.text, () => target.driver.stat(target.key))) return 'file';
  return (await onStorage(target.path.text, () => target.driver.folderExists(target.key))) ? 'folder' : 'none';
}

/**
 * Removing the last entry of a folder must not remove the folder (S3 has no folders, and LOCAL prunes empty
 * ones for file shares): the parent of what went is made again when it is gone.
 */
export async function keepParent(target: MountTarget): Promise<void> {
  if (target.inner.length <= 1) return;
  const parent = parentTarget(target);
  if (!(await target.driver.folderExists(parent.key))) await target.driver.makeFolder(parent.key);
}

const notFound = (path: FsPath) => new ApiError(404, 'fs_not_found', { path: path.text });
const exists = (path: FsPath) => new ApiError(409, 'fs_exists', { path: path.text }, { field: 'path', issue: 'exists' });

export async function makeFolder(deps: AppDeps, caller: FsCaller, path: FsPath): Promise<void> {
  checkName(nameOf(path), 'path');
  const target = await resolveInMount(deps, caller, path);
  if ((await kindAt(target)) !== 'none') throw exists(path);
  await onStorage(path.text, () => target.driver.makeFolder(target.key));
  await invalidate(deps, target);
}

export async function removePath(deps: AppDeps, caller: FsCaller, path: FsPath): Promise<void> {
  const target = await resolveInMount(deps, caller, path);
  if (target.inner.length === 0) throw new ApiError(403, 'fs_mount_root');
  const kind = await kindAt(target);
  if (kind === 'none') throw notFound(path);
  await onStorage(path.text, async () => {
    if (kind === 'file') await target.driver.delete(target.key);
    else await target.driver.removeFolder(target.key);
    await keepParent(target);
  });
  await invalidate(deps, target);
}

/** Each path on its own: one that fails does not stop the others. */
export async function removePaths(deps: AppDeps, caller: FsCaller, paths: FsPath[], lang: Lang): Promise<FsBatchResult> {
  const result: FsBatchResult = { succeeded: [], failed: [] };
  for (const path of paths) {
    try {
      await removePath(deps, caller, path);
      result.succeeded.push(path.text);
    } catch (error) {
      const apiError = storageError(path.text, error);
      if (!(apiError instanceof ApiError)) throw apiError;
      result.failed.push({ path: path.text, error: apiError.reason, message: translate(apiError.messageKey, lang, apiError.params) });
    }
  }
  return result;
}

/** Moves a file or a whole folder inside one mount; the target must not exist. */
export async function renamePath(deps: AppDeps, caller: FsCaller, from: FsPath, to: FsPath): Promise<void> {
  checkName(nameOf(to), 'newPath');
  const source = await resolveInMount(deps, caller, from);
  if (source.inner.length === 0) throw new ApiError(403, 'fs_mount_root');
  const target = await resolveInMount(deps, caller, to);
  if (target.inner.length === 0) throw new ApiError(403, 'fs_mount_root');
  if (source.mount.id !== target.mount.id) throw new ApiError(400, 'fs_across_mounts', {}, { field: 'newPath', issue: 'other_mount' });
  if (from.text === to.text) return;
  if (isWithin(to, from)) throw new ApiError(400, 'fs_into_itself', {}, { field: 'newPath', issue: 'into_itself' });
  const kind = await kindAt(source);
  if (kind === 'none') throw notFound(from);
  if ((await kindAt(target)) !== 'none') throw exists(to);
  await moveWithin(deps, source, target, kind);
}

/**
 * Moves a file or a folder with everything in it to a target of the same storage config, by the storage's own
 * move (rename, or copy and delete on S3); the source's folder stays. The caller decided the target is writable.
 */
export async function moveWithin(deps: AppDeps, source: MountTarget, target: MountTarget, kind: 'file' | 'folder'): Promise<void> {
  await onStorage(source.path.text, async () => {
    if (kind === 'file') await source.driver.move(source.key, target.key);
    else await moveFolder(source, target);
    await keepParent(source);
  });
  await invalidate(deps, source);
  await invalidate(deps, target);
}

async function moveFolder(source: MountTarget, target: MountTarget): Promise<void> {
  const tree = await listMount(source, true);
  const moved = (key: string) => withInner(target, [...target.inner, ...innerOfKey(source, key).slice(source.inner.length)]).key;
  await source.driver.makeFolder(target.key);
  for (const folder of tree.folders) await source.driver.makeFolder(moved(folder));
  for (const object of tree.objects) await source.driver.move(object.key, moved(object.key));
  await source.driver.removeFolder(source.key);
}

/** What many writes of one request share (see upload-batch.ts). */
export interface WriteOptions {
  /** The limits of the target's storage config, read once by the caller; read here when absent. */
  limits?: UploadLimits;
  /** The caller drops the changed listings itself, once for all its writes; otherwise this write does. */
  deferInvalidate?: boolean;
}

/**
 * Whether a write must refuse the target as a folder: the mount's root, or a folder that is not also a file (S3
 * may hold both under one name; kindAt calls that a file). One storage call when there is no folder, the usual case.
 */
async function isFolderAt(target: MountTarget): Promise<boolean> {
  if (target.inner.length === 0) return true;
  if (!(await onStorage(target.path.text, () => target.driver.folderExists(target.key)))) return false;
  return !(await onStorage(target.path.text, () => target.driver.stat(target.key)));
}

/**
 * Streams bytes into a file of a mount (upload, WebDAV PUT, text save) within the max upload size and the
 * config's quota; over either, nothing stays behind and the answer is a 413 with the figures.
 */
export async function writeFile(
  deps: AppDeps,
  target: MountTarget,
  body: Readable,
  contentType: string | undefined,
  options: WriteOptions = {},
): Promise<FsUploadResult> {
  checkName(nameOf(target.path), 'path');
  if (await isFolderAt(target)) {
    body.resume();
    throw new ApiError(409, 'fs_exists', { path: target.path.text }, { field: 'path', issue: 'is_a_folder' });
  }
  const limits = options.limits ?? (await uploadLimits(deps, target.config));
  const mimetype = cleanContentType(contentType && contentType !== 'application/octet-stream' ? contentType : mimeTypeOf(nameOf(target.path)));
  const outcome = await putWithinBudget(target.driver, target.key, body, mimetype, byteBudget(limits));
  if (outcome.kind === 'over_budget') {
    assertFits(outcome.seen, limits);
    throw new ApiError(413, 'body_too_large', { limit: String(byteBudget(limits)) });
  }
  if (outcome.kind === 'failed') throw storageError(target.path.text, outcome.error);
  if (!options.deferInvalidate) await invalidate(deps, target);
  return { path: target.path.text, size: outcome.head.size, etag: outcome.head.etag, mimetype };
}

/** `update {path, content}`: a text file saved whole (created when missing). */
export async function saveText(deps: AppDeps, caller: FsCaller, path: FsPath, content: string): Promise<FsUploadResult> {
  const target = await resolveInMount(deps, caller, path);
  if ((await kindAt(parentTarget(target))) === 'file') throw new ApiError(400, 'fs_not_a_folder', { path: parentOf(path).text });
  return writeFile(deps, target, Readable.from([Buffer.from(content, 'utf8')]), mimeTypeOf(nameOf(path)));
}

/** The file a form or a client names by folder and file name. */
export async function fileInFolder(deps: AppDeps, caller: FsCaller, folder: FsPath, filename: string): Promise<MountTarget> {
  const name = checkName(filename.split(/[/\\]/).pop() ?? '', 'filename');
  const target = await resolveInMount(deps, caller, childOf(folder, name));
  if ((await kindAt(parentTarget(target))) === 'file') throw new ApiError(400, 'fs_not_a_folder', { path: folder.text });
  return target;
}
