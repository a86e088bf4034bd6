import type * as v from 'valibot';
import { FS_READ_GROUP_BYTES, FS_READ_GROUP_FILES, type FsConflictPolicy, type FsWriteOutcome, type FsBatchCopy, type fsBatchCopyCommitRequestSchema, type FsBatchResult, type FsClientCopy, type FsReadGroup } from '../../../contract/fs';
import { mimeTypeOf } from '../../../contract/mime';
import { MIN_PART_BYTES } from '../../../contract/parts';
import type { AppDeps } from '../../context';
import { ApiError, badInput } from '../../errors';
import { translate, type Lang } from '../../i18n/messages';
import { forEachAtOnce } from '../../storage/at-once';
import type { ListedObject } from '../../storage/driver';
import { invalidateFolders } from './shared-directory-cache';
import { openPlannedUpload, uploadKeyMismatch } from '../file-shares/multipart-core';
import { assertFits, uploadLimits, type UploadLimits } from '../storages/upload-limits';
import { childOf, isWithin, nameOf, normalizePath, type FsPath } from './paths';
import { innerOfKey, listMount, resolveInMount, withInner, type FsCaller, type MountTarget } from './resolve';
import { batchErrorOf, onStorage, storageError } from './storage-errors';
import { placeKnown, releaseName, UPLOAD_HOLD_MS } from './free-names';
import { invalidate, kindAt, parentTarget, writeFile } from './writes';

/** Files of one item checked and copied (or signed for the client) at once. */
const FILES_AT_ONCE = 8;
/** Signed download URLs of client-side copies live this long: a copy of many large files takes a while. */
const CLIENT_COPY_SECONDS = 24 * 3600;

type Failure = FsBatchCopy['failed'][number];

/** One failed entry of a batch answer. */
export const failureOf = (path: string, error: unknown, lang: Lang): Failure => {
  const apiError = storageError(path, error);
  if (!(apiError instanceof ApiError)) throw apiError;
  return { path, error: batchErrorOf(apiError), message: translate(apiError.messageKey, lang, apiError.params) };
};

/** `targetPath` ending in `/` is the folder to copy into; otherwise the copy's own path. */
function targetPathOf(sourcePath: FsPath, rawTarget: string): FsPath {
  const target = normalizePath(rawTarget, 'targetPath');
  return target.folderHint ? childOf(target, nameOf(sourcePath)) : target;
}

/** One file to copy: where from, where to, and the source object as its storage listed it. */
export interface FilePair {
  from: MountTarget;
  to: MountTarget;
  object: ListedObject;
}

/** The file pairs of a file or a folder's whole tree (one listing, no request per file); the target's folders are made. */
export async function filePairs(source: MountTarget, target: MountTarget): Promise<FilePair[]> {
  const file = await onStorage(source.path.text, () => source.driver.stat(source.key));
  if (file) return [{ from: source, to: target, object: file }];
  const tree = await onStorage(source.path.text, () => listMount(source, true));
  const below = (key: string) => innerOfKey(source, key).slice(source.inner.length);
  await target.driver.makeFolder(target.key);
  for (const folder of tree.folders) await target.driver.makeFolder(withInner(target, [...target.inner, ...below(folder)]).key);
  return tree.objects.map((object) => ({
    from: withInner(source, innerOfKey(source, object.key)),
    to: withInner(target, [...target.inner, ...below(object.key)]),
    object,
  }));
}

/**
 * What is at each of a copy's target paths (a file, a folder, or nothing), from one listing of the whole target
 * taken before anything is written: a folder of 200 files costs one request, not two per file.
 */
async function takenBelow(target: MountTarget): Promise<(to: MountTarget) => 'file' | 'folder' | 'none'> {
  const kind = await kindAt(target);
  if (kind !== 'folder') return (to) => (to.key === target.key ? kind : 'none');
  const tree = await onStorage(target.path.text, () => listMount(target, true));
  const files = new Set(tree.objects.map((object) => object.key));
  const folders = new Set([target.key, ...tree.folders]);
  return (to) => (files.has(to.key) ? 'file' : folders.has(to.key) ? 'folder' : 'none');
}

/** A copy or move item's source and target, checked: not a mount's root, not into itself, the source there. */
export async function itemTargets(deps: AppDeps, caller: FsCaller, item: { sourcePath: string; targetPath: string }) {
  const sourcePath = normalizePath(item.sourcePath, 'sourcePath');
  const targetPath = targetPathOf(sourcePath, item.targetPath);
  const source = await resolveInMount(deps, caller, sourcePath);
  const target = await resolveInMount(deps, caller, targetPath);
  if (source.inner.length === 0) throw new ApiError(403, 'fs_mount_root');
  if (isWithin(targetPath, sourcePath)) throw new ApiError(400, 'fs_into_itself', {}, { field: 'targetPath', issue: 'into_itself' });
  if ((await kindAt(source)) === 'none') throw new ApiError(404, 'fs_not_found', { path: sourcePath.text });
  return { source, target };
}

/** What copyFiles adds to: the files done by the server, skipped, failed, and the client copies planned. */
export type CopyAnswer = Omit<FsBatchCopy, 'copied'> & { done: string[] };

const emptyCopyAnswer = (): CopyAnswer => ({ done: [], skipped: [], failed: [], outcomes: [], requiresClientSideCopy: false, clientCopies: [], readGroups: [] });

/**
 * The items of a batch copy or move, each checked (itemTargets) and handed to `work` on its own: one that fails is
 * answered in `failed` and the next one still goes.
 */
export async function eachItem(
  deps: AppDeps,
  caller: FsCaller,
  items: { sourcePath: string; targetPath: string }[],
  lang: Lang,
  work: (source: MountTarget, target: MountTarget, answer: CopyAnswer) => Promise<void>,
): Promise<CopyAnswer> {
  const answer = emptyCopyAnswer();
  for (const item of items) {
    try {
      const { source, target } = await itemTargets(deps, caller, item);
      await work(source, target, answer);
    } catch (error) {
      answer.failed.push(failureOf(item.sourcePath, error, lang));
    }
  }
  answer.requiresClientSideCopy = answer.clientCopies.length > 0;
  return answer;
}

/**
 * Copies one item's files under `policy` (free-names.ts): inside one storage config by the server, between configs
 * as client copies whose target names (created or renamed) stay reserved until committed. The files of an item
 * must fit the target's limits together, not only one by one.
 */
export async function copyFiles(
  deps: AppDeps,
  source: MountTarget,
  target: MountTarget,
  policy: FsConflictPolicy,
  baseUrl: string,
  lang: Lang,
  answer: CopyAnswer,
): Promise<void> {
  const sameStorage = source.config.id === target.config.id;
  const taken = await takenBelow(target);
  const pairs = await filePairs(source, target);
  const budget = sameStorage ? undefined : new CopyBudget(await uploadLimits(deps, target.config));
  /** This item's client copies by their pair's place: planned out of order, grouped in order. */
  const planned: (PlannedCopy | undefined)[] = [];
  // A few files at a time: each waits on storage (a copy, a signing, a multipart start).
  await forEachAtOnce(pairs.map((pair, index) => ({ ...pair, index })), FILES_AT_ONCE, async ({ from, to, object, index }) => {
    try {
      const { outcome, target: placed, reserved } = await placeKnown(deps, to, policy, taken(to), UPLOAD_HOLD_MS, !sameStorage);
      const done = { sourcePath: from.path.text, targetPath: placed.path.text, outcome };
      if (outcome === 'skipped') {
        answer.skipped.push(placed.path.text);
        answer.outcomes.push(done);
        return;
      }
      if (!budget) {
        try {
          await from.driver.copy(from.key, placed.key);
        } finally {
          // A server copy is over: its name is the storage's now (or free again).
          if (reserved) await releaseName(deps, placed);
        }
        answer.done.push(placed.path.text);
        answer.outcomes.push(done);
        return;
      }
      try {
        budget.take(object.size);
        planned[index] = { copy: { ...(await clientCopyOf(from, placed, object.size, baseUrl)), outcome }, from };
      } catch (error) {
        if (reserved) await releaseName(deps, placed);
        throw error;
      }
    } catch (error) {
      answer.failed.push(failureOf(from.path.text, error, lang));
    }
  });
  const copies = planned.filter((entry) => entry !== undefined);
  answer.clientCopies.push(...copies.map(({ copy }) => copy));
  answer.readGroups.push(...(await readGroupsOf(source, copies, baseUrl)));
  await invalidate(deps, target);
}

/**
 * `batch-copy`: inside one storage config the server copies (S3 CopyObject, a file copy on disk), folders with
 * everything in them; between configs it hands the client, per file, a signed download URL and a signed upload
 * target (a PUT URL, or a multipart upload over 5 MiB) to copy in the browser and confirm with batch-copy-commit.
 */
export async function batchCopy(
  deps: AppDeps,
  caller: FsCaller,
  items: { sourcePath: string; targetPath: string }[],
  policy: FsConflictPolicy,
  baseUrl: string,
  lang: Lang,
): Promise<FsBatchCopy> {
  const { done, ...rest } = await eachItem(deps, caller, items, lang, (source, target, answer) => copyFiles(deps, source, target, policy, baseUrl, lang, answer));
  return { ...rest, copied: done };
}

/** The target's upload limits, counting the client copies already planned against its quota. */
class CopyBudget {
  private planned = 0;

  constructor(private readonly limits: UploadLimits) {}

  /** Throws 413 when `size` does not fit beside what is planned; otherwise plans it. */
  take(size: number) {
    const { quota } = this.limits;
    assertFits(size, quota ? { ...this.limits, quota: { ...quota, used: quota.used + this.planned } } : this.limits);
    this.planned += size;
  }
}

/** A client copy as planned, with the source file it reads. */
interface PlannedCopy {
  copy: FsClientCopy & { outcome: FsWriteOutcome };
  from: MountTarget;
}

/**
 * Consecutive small client copies of an item, when its source storage can read several files in one request
 * (LOCAL), in groups of at most FS_READ_GROUP_FILES files and FS_READ_GROUP_BYTES bytes, each with one signed
 * URL: the browser spends most of a small file's copy on its requests, and this saves all but one read of each
 * group. Every file of an item lies in the item's source storage, under the mount (filePairs).
 */
async function readGroupsOf(source: MountTarget, copies: PlannedCopy[], baseUrl: string): Promise<FsReadGroup[]> {
  const sign = source.driver.presignGroupGet?.bind(source.driver);
  if (!sign) return [];
  const groups: PlannedCopy[][] = [];
  let bytes = 0;
  for (const entry of copies) {
    if (entry.copy.upload.kind !== 'put') continue;
    const last = groups.at(-1);
    if (last && last.length < FS_READ_GROUP_FILES && bytes + entry.copy.fileSize <= FS_READ_GROUP_BYTES) {
      last.push(entry);
      bytes += entry.copy.fileSize;
    } else {
      groups.push([entry]);
      bytes = entry.copy.fileSize;
    }
  }
  // A group of one file gains nothing over its own download URL.
  return Promise.all(
    groups
      .filter((group) => group.length > 1)
      .map(async (group) => ({
        url: await sign(
          group.map(({ copy, from }) => ({ key: from.key, size: copy.fileSize })),
          { expiresInSeconds: CLIENT_COPY_SECONDS, baseUrl },
        ),
        size: group.reduce((sum, { copy }) => sum + copy.fileSize, 0),
        sourcePaths: group.map(({ copy }) => copy.sourcePath),
      })),
  );
}

async function clientCopyOf(from: MountTarget, to: MountTarget, size: number, baseUrl: string): Promise<FsClientCopy> {
  const contentType = mimeTypeOf(nameOf(from.path));
  const downloadUrl = await from.driver.presignGet(from.key, {
    expiresInSeconds: CLIENT_COPY_SECONDS,
    baseUrl,
    disposition: 'attachment',
    filename: nameOf(from.path),
    contentType,
  });
  const common = { sourcePath: from.path.text, targetPath: to.path.text, targetMountId: to.mount.id, fileSize: size, contentType, downloadUrl, s3Path: to.key };
  if (size <= MIN_PART_BYTES) {
    const url = await to.driver.presignPut(to.key, { contentType, size, expiresInSeconds: CLIENT_COPY_SECONDS, baseUrl });
    return { ...common, upload: { kind: 'put', url } };
  }
  const { uploadId, partSize, partCount } = await openPlannedUpload(to.driver, to.key, contentType, size, (error) => storageError(to.path.text, error));
  return { ...common, upload: { kind: 'multipart', uploadId, partSize, partCount } };
}

type CommitFile = v.InferOutput<typeof fsBatchCopyCommitRequestSchema>['files'][number];
/** A client copy whose target is in storage with the size the client declared, as storage lists it. */
export interface VerifiedCopy<F extends CommitFile> {
  file: F;
  target: MountTarget;
  object: ListedObject;
}

/**
 * The client copies of a commit checked: each target is the one planned (mount and key) and in storage with its
 * size, and its ETag when the client gives one. Every other file is answered in `failed`.
 */
export async function verifyClientCopies<F extends CommitFile>(
  deps: AppDeps,
  caller: FsCaller,
  input: { targetMountId: string; files: F[] },
  lang: Lang,
  failed: FsBatchResult['failed'],
): Promise<VerifiedCopy<F>[]> {
  const copies: { file: F; target: MountTarget }[] = [];
  for (const file of input.files) {
    try {
      const target = await resolveInMount(deps, caller, normalizePath(file.targetPath, 'targetPath'));
      if (target.mount.id !== input.targetMountId || target.key !== file.s3Path) {
        throw uploadKeyMismatch(target.path.text, 's3Path');
      }
      copies.push({ file, target });
    } catch (error) {
      failed.push(failureOf(file.targetPath, error, lang));
    }
  }
  const stored = await storedObjects(copies.map(({ target }) => target));
  const verified: VerifiedCopy<F>[] = [];
  for (const { file, target } of copies) {
    try {
      const object = stored.get(target.key);
      if (object === undefined) throw new ApiError(404, 'fs_not_found', { path: target.path.text });
      if ('error' in object) throw object.error;
      if (object.size !== file.fileSize) throw sizeMismatch();
      if (file.etag && object.etag && file.etag.replace(/"/g, '') !== object.etag) throw badInput('etag', 'etag_mismatch');
      verified.push({ file, target, object });
    } catch (error) {
      failed.push(failureOf(file.targetPath, error, lang));
    }
  }
  return verified;
}

export const sizeMismatch = () => new ApiError(400, 'invalid_input', { field: 'fileSize', issue: 'size_mismatch' }, { field: 'fileSize', issue: 'size_mismatch' });

/**
 * `batch-copy-commit`: each copied file must be in the target storage with its size; its name is the storage's
 * then (its reservation ends), and the listings they change are dropped, with one version bump for them all.
 */
export async function commitClientCopies(
  deps: AppDeps,
  caller: FsCaller,
  input: v.InferOutput<typeof fsBatchCopyCommitRequestSchema>,
  lang: Lang,
): Promise<FsBatchResult> {
  const result: FsBatchResult = { succeeded: [], failed: [] };
  const verified = await verifyClientCopies(deps, caller, input, lang, result.failed);
  for (const { target } of verified) {
    await releaseName(deps, target);
    result.succeeded.push(target.path.text);
  }
  if (verified.length > 0) await invalidateFolders(deps, input.targetMountId, verified.map(({ target }) => target.inner.join('/')));
  return result;
}

/** A folder holding at least this many of the objects to check is listed once rather than asked per object. */
const LIST_FROM = 4;

/**
 * Each target's object as stored, by key (absent: no such object; `{ error }`: storage failed). Objects checked
 * together mostly share a folder, and one listing of it costs less than a HEAD per object.
 */
async function storedObjects(targets: MountTarget[]): Promise<Map<string, ListedObject | { error: unknown }>> {
  const byFolder = new Map<string, MountTarget[]>();
  for (const target of targets) {
    const folder = parentTarget(target).key;
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), target]);
  }
  const lookups = [...byFolder.values()].flatMap((group) => (group.length >= LIST_FROM ? [group] : group.map((target) => [target])));
  const sizes = new Map<string, ListedObject | { error: unknown }>();
  await forEachAtOnce(lookups, FILES_AT_ONCE, async (group) => {
    const first = group[0] as MountTarget;
    try {
      const objects = group.length > 1 ? (await first.driver.list(parentTarget(first).key)).objects : [await first.driver.stat(first.key)];
      for (const object of objects) if (object) sizes.set(object.key, object);
    } catch (error) {
      for (const target of group) sizes.set(target.key, { error });
    }
  });
  return sizes;
}

/**
 * Copies a file, or a folder with everything in it (`depth` infinity) or alone (`0`), on the server: inside one
 * storage config by the storage's own copy, between configs streamed from one to the other within the target's
 * limits (WebDAV COPY and MOVE; the explorer copies between storages in the browser instead). The target must not
 * exist.
 */
export async function copyOnServer(deps: AppDeps, from: MountTarget, to: MountTarget, depth: '0' | 'infinity'): Promise<void> {
  const shallowFolder = depth === '0' && (await kindAt(from)) === 'folder';
  if (shallowFolder) await to.driver.makeFolder(to.key);
  for (const { from: source, to: target } of shallowFolder ? [] : await filePairs(from, to)) {
    if (source.config.id === target.config.id) await source.driver.copy(source.key, target.key);
    else await writeFile(deps, target, await source.driver.get(source.key), mimeTypeOf(nameOf(source.path)));
  }
  await invalidate(deps, to);
}
