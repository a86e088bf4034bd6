import type * as v from 'valibot';
import { FS_PART_BYTES, type FsBatchCopy, type fsBatchCopyCommitRequestSchema, type FsBatchResult, type FsClientCopy } from '../../contract/fs';
import { mimeTypeOf } from '../../contract/mime';
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { translate, type Lang } from '../i18n/messages';
import { assertFits, uploadLimits } from '../services/files';
import { childOf, isWithin, nameOf, normalizePath, type FsPath } from './paths';
import { innerOfKey, resolveInMount, withInner, type FsCaller, type MountTarget } from './resolve';
import { storageError } from './storage-errors';
import { fsPartSize } from './transfers';
import { invalidate, kindAt, writeFile } from './writes';

/** Files of one item checked and copied (or signed for the client) at once. */
const FILES_AT_ONCE = 8;
/** Signed download URLs of client-side copies live this long: a copy of many large files takes a while. */
const CLIENT_COPY_SECONDS = 24 * 3600;

type Failure = FsBatchCopy['failed'][number];

const failureOf = (path: string, error: unknown, lang: Lang): Failure => {
  const apiError = storageError(path, error);
  if (!(apiError instanceof ApiError)) throw apiError;
  return { path, error: apiError.reason, message: translate(apiError.messageKey, lang, apiError.params) };
};

/** `targetPath` ending in `/` is the folder to copy into; otherwise the copy's own path. */
function targetPathOf(sourcePath: FsPath, rawTarget: string): FsPath {
  const target = normalizePath(rawTarget, 'targetPath');
  return target.folderHint ? childOf(target, nameOf(sourcePath)) : target;
}

/** Pairs of (source file, target file) for a file or a folder's whole tree; the target's folders are made. */
export async function filePairs(source: MountTarget, target: MountTarget): Promise<[MountTarget, MountTarget][]> {
  if ((await kindAt(source)) === 'file') return [[source, target]];
  const tree = await source.driver.listTree(source.key);
  const below = (key: string) => innerOfKey(source, key).slice(source.inner.length);
  await target.driver.makeFolder(target.key);
  for (const folder of tree.folders) await target.driver.makeFolder(withInner(target, [...target.inner, ...below(folder)]).key);
  return tree.objects.map((object) => [withInner(source, innerOfKey(source, object.key)), withInner(target, [...target.inner, ...below(object.key)])]);
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
  skipExisting: boolean,
  baseUrl: string,
  lang: Lang,
): Promise<FsBatchCopy> {
  const result: FsBatchCopy = { copied: [], skipped: [], failed: [], requiresClientSideCopy: false, clientCopies: [] };
  for (const item of items) {
    try {
      const sourcePath = normalizePath(item.sourcePath, 'sourcePath');
      const targetPath = targetPathOf(sourcePath, item.targetPath);
      const source = await resolveInMount(deps, caller, sourcePath);
      const target = await resolveInMount(deps, caller, targetPath);
      if (source.inner.length === 0) throw new ApiError(403, 'fs_mount_root');
      if (isWithin(targetPath, sourcePath)) throw new ApiError(400, 'fs_into_itself', {}, { field: 'targetPath', issue: 'into_itself' });
      if ((await kindAt(source)) === 'none') throw new ApiError(404, 'fs_not_found', { path: sourcePath.text });
      const sameStorage = source.config.id === target.config.id;
      const pairs = await filePairs(source, target);
      // A few files at a time: each waits on storage (a HEAD, a copy, a signing, a multipart start).
      const copyNext = async () => {
        for (let pair = pairs.shift(); pair; pair = pairs.shift()) {
          const [from, to] = pair;
          try {
            if (skipExisting && (await kindAt(to)) !== 'none') {
              result.skipped.push(to.path.text);
            } else if (sameStorage) {
              await from.driver.copy(from.key, to.key);
              result.copied.push(to.path.text);
            } else {
              result.clientCopies.push(await clientCopyOf(deps, from, to, baseUrl));
            }
          } catch (error) {
            result.failed.push(failureOf(from.path.text, error, lang));
          }
        }
      };
      await Promise.all(Array.from({ length: FILES_AT_ONCE }, copyNext));
      await invalidate(deps, target);
    } catch (error) {
      result.failed.push(failureOf(item.sourcePath, error, lang));
    }
  }
  result.requiresClientSideCopy = result.clientCopies.length > 0;
  return result;
}

async function clientCopyOf(deps: AppDeps, from: MountTarget, to: MountTarget, baseUrl: string): Promise<FsClientCopy> {
  const object = await from.driver.stat(from.key);
  if (!object) throw new ApiError(404, 'fs_not_found', { path: from.path.text });
  assertFits(object.size, await uploadLimits(deps, to.config));
  const contentType = mimeTypeOf(nameOf(from.path));
  const downloadUrl = await from.driver.presignGet(from.key, {
    expiresInSeconds: CLIENT_COPY_SECONDS,
    baseUrl,
    disposition: 'attachment',
    filename: nameOf(from.path),
    contentType,
  });
  const common = { sourcePath: from.path.text, targetPath: to.path.text, targetMountId: to.mount.id, fileSize: object.size, contentType, downloadUrl, s3Path: to.key };
  if (object.size <= FS_PART_BYTES) {
    const url = await to.driver.presignPut(to.key, { contentType, size: object.size, expiresInSeconds: CLIENT_COPY_SECONDS, baseUrl });
    return { ...common, upload: { kind: 'put', url } };
  }
  const uploadId = await to.driver.initMultipart(to.key, { contentType });
  const partSize = fsPartSize(object.size);
  return { ...common, upload: { kind: 'multipart', uploadId, partSize, partCount: Math.ceil(object.size / partSize) } };
}

/** `batch-copy-commit`: each copied file must be in the target storage with its size; caches are refreshed. */
export async function commitClientCopies(
  deps: AppDeps,
  caller: FsCaller,
  input: v.InferOutput<typeof fsBatchCopyCommitRequestSchema>,
  lang: Lang,
): Promise<FsBatchResult> {
  const result: FsBatchResult = { succeeded: [], failed: [] };
  for (const file of input.files) {
    try {
      const target = await resolveInMount(deps, caller, normalizePath(file.targetPath, 'targetPath'));
      if (target.mount.id !== input.targetMountId || target.key !== file.s3Path) {
        throw new ApiError(400, 'fs_key_mismatch', { path: target.path.text }, { field: 's3Path', issue: 'mismatch' });
      }
      const object = await target.driver.stat(target.key);
      if (!object) throw new ApiError(404, 'fs_not_found', { path: target.path.text });
      if (object.size !== file.fileSize) throw new ApiError(400, 'invalid_input', { field: 'fileSize', issue: 'size_mismatch' }, { field: 'fileSize', issue: 'size_mismatch' });
      await invalidate(deps, target);
      result.succeeded.push(target.path.text);
    } catch (error) {
      result.failed.push(failureOf(file.targetPath, error, lang));
    }
  }
  return result;
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
  for (const [source, target] of shallowFolder ? [] : await filePairs(from, to)) {
    if (source.config.id === target.config.id) await source.driver.copy(source.key, target.key);
    else await writeFile(deps, target, await source.driver.get(source.key), mimeTypeOf(nameOf(source.path)));
  }
  await invalidate(deps, to);
}
