import type * as v from 'valibot';
import type { FsBatchMove, fsBatchMoveCommitRequestSchema, FsBatchResult, FsConflictPolicy } from '../../../contract/fs';
import type { AppDeps } from '../../context';
import { ApiError, badInput } from '../../errors';
import type { Lang } from '../../i18n/messages';
import type { ListedObject } from '../../storage/driver';
import { mimeTypeOf } from '../../../contract/mime';
import { copyFiles, eachItem, failureOf, filePairs, sizeMismatch, verifyClientCopies, type CopyAnswer } from './copy';
import { DIRECT_WRITE_HOLD_MS, placeWrite, releaseName } from './free-names';
import { nameOf, normalizePath } from './paths';
import { listMount, resolveInMount, type FsCaller, type MountTarget } from './resolve';
import { onStorage } from './storage-errors';
import { invalidate, keepParent, kindAt, moveWithin, writeFile } from './writes';

/**
 * `batch-move`: each item inside one storage config is moved by the storage (a file, or a folder with everything
 * in it) under the conflict rule for its target; between configs its files are planned as batch-copy's client
 * copies, and batch-move-commit deletes each source once its copy is verified. A source is never deleted before.
 */
export async function batchMove(
  deps: AppDeps,
  caller: FsCaller,
  items: { sourcePath: string; targetPath: string }[],
  policy: FsConflictPolicy,
  baseUrl: string,
  lang: Lang,
): Promise<FsBatchMove> {
  const { done, ...rest } = await eachItem(deps, caller, items, lang, (source, target, answer) =>
    source.config.id === target.config.id ? moveInStorage(deps, source, target, policy, answer) : copyFiles(deps, source, target, policy, baseUrl, lang, answer),
  );
  return { ...rest, moved: done };
}

/** One item moved by its storage; a folder in the way of a folder is a conflict like a file (never merged). */
async function moveInStorage(deps: AppDeps, source: MountTarget, target: MountTarget, policy: FsConflictPolicy, answer: CopyAnswer) {
  const kind = await kindAt(source);
  if (kind === 'none') throw new ApiError(404, 'fs_not_found', { path: source.path.text });
  if (source.key === target.key) throw new ApiError(400, 'fs_into_itself', {}, { field: 'targetPath', issue: 'into_itself' });
  const { outcome, target: placed, reserved } = await placeWrite(deps, target, policy, DIRECT_WRITE_HOLD_MS);
  const done = { sourcePath: source.path.text, targetPath: placed.path.text, outcome };
  if (outcome === 'skipped') {
    answer.skipped.push(placed.path.text);
    answer.outcomes.push(done);
    return;
  }
  try {
    // A folder replaces nothing, and nothing replaces a folder (placeWrite refused that already).
    if (kind === 'folder' && outcome === 'replaced') throw new ApiError(409, 'fs_exists', { path: placed.path.text }, { field: 'targetPath', issue: 'exists' });
    await moveWithin(deps, source, placed, kind);
  } finally {
    if (reserved) await releaseName(deps, placed);
  }
  answer.done.push(placed.path.text);
  answer.outcomes.push(done);
}

/** ETags that say the same thing on either side: plain MD5s (a multipart ETag is not the content's MD5). */
const comparableEtag = (etag: string | null | undefined) => (etag && /^[0-9a-f]{32}$/i.test(etag.replace(/"/g, '')) ? etag.replace(/"/g, '').toLowerCase() : undefined);

/** The copy of `source` at `object` is whole: the same size, and the same MD5 where both sides give one. */
export function assertSameFile(source: ListedObject, object: ListedObject) {
  if (source.size !== object.size) throw sizeMismatch();
  const [from, to] = [comparableEtag(source.etag), comparableEtag(object.etag)];
  if (from && to && from !== to) throw badInput('etag', 'etag_mismatch');
}

/**
 * `batch-move-commit`: each client copy verified (the target as planned, with the declared size, the source's
 * size and, where comparable, its ETag), then its source deleted; `pruneFolders` removed when no file is left
 * below them. `succeeded` lists the moved files' final paths.
 */
export async function commitMoves(
  deps: AppDeps,
  caller: FsCaller,
  input: v.InferOutput<typeof fsBatchMoveCommitRequestSchema>,
  lang: Lang,
): Promise<FsBatchResult> {
  const result: FsBatchResult = { succeeded: [], failed: [] };
  const verified = await verifyClientCopies(deps, caller, input, lang, result.failed);
  for (const { file, target, object } of verified) {
    try {
      const source = await resolveInMount(deps, caller, normalizePath(file.sourcePath, 'sourcePath'));
      if (source.inner.length === 0) throw new ApiError(403, 'fs_mount_root');
      if (source.config.id === target.config.id && source.key === target.key) throw badInput('sourcePath', 'invalid_path');
      const stored = await onStorage(source.path.text, () => source.driver.stat(source.key));
      await releaseName(deps, target);
      // Committed again (a retry after a lost answer): the source is gone and the target verified.
      if (stored) {
        assertSameFile(stored, object);
        await onStorage(source.path.text, async () => {
          await source.driver.delete(source.key);
          await keepParent(source);
        });
        await invalidate(deps, source);
      }
      await invalidate(deps, target);
      result.succeeded.push(target.path.text);
    } catch (error) {
      result.failed.push(failureOf(file.sourcePath, error, lang));
    }
  }
  for (const folder of input.pruneFolders) {
    try {
      await pruneIfEmpty(deps, caller, folder);
    } catch (error) {
      result.failed.push(failureOf(folder, error, lang));
    }
  }
  return result;
}

/** Removes a moved folder when no file is left anywhere below it (a file whose move failed keeps it). */
async function pruneIfEmpty(deps: AppDeps, caller: FsCaller, raw: string): Promise<void> {
  await pruneTarget(deps, await resolveInMount(deps, caller, normalizePath(raw, 'pruneFolders')));
}

async function pruneTarget(deps: AppDeps, folder: MountTarget): Promise<void> {
  if (folder.inner.length === 0 || (await kindAt(folder)) !== 'folder') return;
  const tree = await onStorage(folder.path.text, () => listMount(folder, true));
  if (tree.objects.length > 0) return;
  await onStorage(folder.path.text, async () => {
    await folder.driver.removeFolder(folder.key);
    await keepParent(folder);
  });
  await invalidate(deps, folder);
}

/**
 * Moves a file or a folder with everything in it on the server (WebDAV MOVE; the target must not exist): inside
 * one storage config by the storage, between configs file by file, each streamed within the target's limits,
 * checked as batch-move-commit checks it, and only then its source deleted. A failure stops the move where it is:
 * every file is whole in the source or verified in the target, and the source folder stays while a file is left.
 */
export async function moveOnServer(deps: AppDeps, from: MountTarget, to: MountTarget): Promise<void> {
  const kind = await kindAt(from);
  if (kind === 'none') throw new ApiError(404, 'fs_not_found', { path: from.path.text });
  if (from.config.id === to.config.id) return moveWithin(deps, from, to, kind);
  for (const { from: source, to: target, object } of await filePairs(from, to)) {
    await writeFile(deps, target, await onStorage(source.path.text, () => source.driver.get(source.key)), mimeTypeOf(nameOf(source.path)), { deferInvalidate: true });
    const written = await onStorage(target.path.text, () => target.driver.stat(target.key));
    if (!written) throw new ApiError(404, 'fs_not_found', { path: target.path.text });
    assertSameFile(object, written);
    await onStorage(source.path.text, () => source.driver.delete(source.key));
  }
  if (kind === 'folder') await pruneTarget(deps, from);
  else await onStorage(from.path.text, () => keepParent(from));
  await invalidate(deps, from);
  await invalidate(deps, to);
}
