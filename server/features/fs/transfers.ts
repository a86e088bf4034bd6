import type { Readable } from 'node:stream';
import type * as v from 'valibot';
import {
  type FsConflictPolicy,
  type fsMultipartCompleteRequestSchema,
  type FsMultipartInit,
  type FsPresign,
  type fsPresignCommitRequestSchema,
  type fsPresignSkippedSchema,
  type FsUploadResult,
} from '../../../contract/fs';
import { PRESIGN_TTL_SECONDS } from '../../../contract/files';
import { mimeTypeOf } from '../../../contract/mime';
import type { AppDeps } from '../../context';
import { ApiError, badInput } from '../../errors';
import { assertFits, byteBudget, uploadLimits } from '../storages/upload-limits';
import {
  abortQuietly,
  completeUpload,
  onUpload,
  openPlannedUpload,
  uploadKeyMismatch,
  type OpenUpload,
  type UploadErrors,
} from '../file-shares/multipart-core';
import { LARGEST_PLANNED_PART_BYTES } from '../../../contract/parts';
import type { StoredPart } from '../../storage/driver';
import { cleanContentType } from '../../storage/http-headers';
import { parseFsName } from '../../../contract/fs-paths';
import { childOf, nameOf, type FsPath } from './paths';
import { resolveInMount, type FsCaller, type MountTarget } from './resolve';
import { onStorage, storageError } from './storage-errors';
import { placeWrite, releaseName, renewName, UPLOAD_HOLD_MS, type Placement } from './free-names';
import { invalidate } from './writes';

const contentTypeFor = (target: MountTarget, given: string | undefined) =>
  cleanContentType(given && given !== 'application/octet-stream' ? given : mimeTypeOf(nameOf(target.path)));

/**
 * The opaque key of part, complete, abort and commit calls must be the one the path resolves to now. CloudPaste's
 * client sends the folder it uploads into as `path`: a key naming a file right in that folder stands for that file,
 * which is resolved again so that the mount, base-path and reserved-area rules judge it as any path.
 */
async function uploadTarget(deps: AppDeps, caller: FsCaller, path: FsPath, key: string): Promise<MountTarget> {
  const target = await resolveInMount(deps, caller, path);
  if (target.key === key) return target;
  const name = nameInFolder(target.key, key);
  if (name !== undefined) {
    const file = await resolveInMount(deps, caller, childOf(path, name));
    if (file.key === key) return file;
  }
  throw uploadKeyMismatch(path.text, 'key');
}

/** The name of `key` when it is an entry right in the folder at `folderKey` and a valid name; else undefined. */
function nameInFolder(folderKey: string, key: string): string | undefined {
  const prefix = folderKey === '' ? '' : `${folderKey}/`;
  if (!key.startsWith(prefix)) return undefined;
  const name = parseFsName(key.slice(prefix.length));
  return name.ok && name.value === key.slice(prefix.length) ? name.value : undefined;
}

/**
 * Where an upload of `size` bytes to `target` goes under `policy` (free-names.ts), within the target's limits; a
 * name it reserved is given back when `start` (opening the upload) fails.
 */
async function placeUpload<T>(
  deps: AppDeps,
  target: MountTarget,
  input: { fileSize: number; onConflict: FsConflictPolicy },
  start: (placement: Placement & { outcome: 'created' | 'replaced' | 'renamed' }) => Promise<T>,
): Promise<T | { outcome: 'skipped'; target: MountTarget }> {
  const placement = await placeWrite(deps, target, input.onConflict, UPLOAD_HOLD_MS);
  if (placement.outcome === 'skipped') return { outcome: 'skipped', target: placement.target };
  try {
    assertFits(input.fileSize, await uploadLimits(deps, placement.target.config));
    return await start({ ...placement, outcome: placement.outcome });
  } catch (error) {
    if (placement.reserved) await releaseName(deps, placement.target);
    throw error;
  }
}

/** What a finished upload was: what its reservation planned, or (none held) a write over what was there. */
const outcomeOnFinish = async (deps: AppDeps, target: MountTarget) => (await releaseName(deps, target)) ?? 'replaced';

const fsUploadErrors = (path: FsPath): UploadErrors => ({
  uploadGone: () => new ApiError(404, 'fs_upload_not_found', {}, { field: 'uploadId', issue: 'not_found' }),
  storageFailure: (error) => storageError(path.text, error),
});

export async function initFsMultipart(
  deps: AppDeps,
  target: MountTarget,
  input: { contentType: string; fileSize: number; onConflict: FsConflictPolicy },
): Promise<FsMultipartInit> {
  const started = await placeUpload(deps, target, input, async ({ outcome, target: placed }) => {
    const { storageFailure } = fsUploadErrors(placed.path);
    const { uploadId, ...plan } = await openPlannedUpload(placed.driver, placed.key, contentTypeFor(placed, input.contentType), input.fileSize, storageFailure);
    return { outcome, uploadId, path: placed.path.text, key: placed.key, ...plan };
  });
  return 'uploadId' in started ? started : { outcome: 'skipped', path: started.target.path.text };
}

export async function uploadFsPart(
  deps: AppDeps,
  caller: FsCaller,
  query: { path: FsPath; uploadId: string; key: string; partNumber: number },
  body: Readable,
  size: number | undefined,
): Promise<StoredPart> {
  const target = await uploadTarget(deps, caller, query.path, query.key);
  if (size !== undefined && size > LARGEST_PLANNED_PART_BYTES) {
    body.resume();
    throw new ApiError(413, 'body_too_large', { limit: String(LARGEST_PLANNED_PART_BYTES) });
  }
  try {
    await renewName(deps, target);
    return await onUpload(fsUploadErrors(query.path), () => target.driver.uploadPart(target.key, query.uploadId, query.partNumber, body, { size, resendable: true }));
  } catch (error) {
    body.resume();
    throw error;
  }
}

/** Presigned part URLs for a client that sends parts straight to storage (S3 CORS, or LOCAL's signed URLs). */
export async function signFsParts(
  deps: AppDeps,
  caller: FsCaller,
  input: { path: FsPath; uploadId: string; key: string; partNumbers: number[] },
  baseUrl: string,
): Promise<{ partNumber: number; url: string }[]> {
  const target = await uploadTarget(deps, caller, input.path, input.key);
  await renewName(deps, target);
  const options = { size: LARGEST_PLANNED_PART_BYTES, expiresInSeconds: PRESIGN_TTL_SECONDS, baseUrl };
  return Promise.all(
    input.partNumbers.map(async (partNumber) => ({
      partNumber,
      url: await onUpload(fsUploadErrors(input.path), () => target.driver.presignPart(target.key, input.uploadId, partNumber, options)),
    })),
  );
}

/** Joins the parts once their total fits the limits; over them the upload is dropped with a 413. */
export async function completeFsMultipart(
  deps: AppDeps,
  caller: FsCaller,
  path: FsPath,
  input: v.InferOutput<typeof fsMultipartCompleteRequestSchema>,
): Promise<FsUploadResult> {
  const target = await uploadTarget(deps, caller, path, input.key);
  const upload: OpenUpload = { driver: target.driver, key: target.key, uploadId: input.uploadId };
  const { etag, size } = await completeUpload(upload, input.parts, fsUploadErrors(path), async (total) => {
    const limits = await uploadLimits(deps, target.config);
    if (total > byteBudget(limits)) {
      await abortQuietly(upload);
      await releaseName(deps, target);
      assertFits(total, limits);
    }
  });
  const outcome = await outcomeOnFinish(deps, target);
  await invalidate(deps, target);
  return { path: target.path.text, size, etag, mimetype: contentTypeFor(target, input.contentType), outcome };
}

export async function abortFsMultipart(deps: AppDeps, caller: FsCaller, path: FsPath, input: { uploadId: string; key: string }): Promise<void> {
  const target = await uploadTarget(deps, caller, path, input.key);
  await onUpload(fsUploadErrors(path), () => target.driver.abortMultipart(target.key, input.uploadId));
  await releaseName(deps, target);
}

export async function presignFsUpload(
  deps: AppDeps,
  target: MountTarget,
  input: { contentType: string; fileSize: number; onConflict: FsConflictPolicy },
  baseUrl: string,
): Promise<FsPresign | v.InferOutput<typeof fsPresignSkippedSchema>> {
  const started = await placeUpload(deps, target, input, async ({ outcome, target: placed }) => ({
    outcome,
    target: placed,
    url: await onStorage(placed.path.text, () =>
      placed.driver.presignPut(placed.key, { contentType: contentTypeFor(placed, input.contentType), size: input.fileSize, expiresInSeconds: PRESIGN_TTL_SECONDS, baseUrl }),
    ),
  }));
  if (!('url' in started)) return { outcome: 'skipped', targetPath: started.target.path.text, mountId: started.target.mount.id };
  const { outcome, url: uploadUrl } = started;
  target = started.target;
  const contentType = contentTypeFor(target, input.contentType);
  return {
    outcome,
    uploadUrl,
    targetPath: target.path.text,
    mountId: target.mount.id,
    key: target.key,
    contentType,
    expiresIn: PRESIGN_TTL_SECONDS,
    // CloudPaste's names for the same (contract/fs.ts says why these values).
    presignedUrl: uploadUrl,
    fileId: target.key,
    s3Path: target.key,
    s3ConfigId: target.config.id,
  };
}

/**
 * A presigned PUT is finished: the object must be there with the declared size (and ETag, when given). An object
 * over the limits (the client PUT more than it declared to S3) is removed again.
 */
export async function commitFsUpload(
  deps: AppDeps,
  caller: FsCaller,
  path: FsPath,
  input: v.InferOutput<typeof fsPresignCommitRequestSchema>,
): Promise<FsUploadResult> {
  const target = await uploadTarget(deps, caller, path, input.key);
  const object = await onStorage(path.text, () => target.driver.stat(target.key));
  if (!object) throw new ApiError(404, 'fs_not_found', { path: path.text });
  if (object.size !== input.fileSize) throw badInput('fileSize', 'size_mismatch');
  if (input.etag && object.etag && input.etag.replace(/"/g, '') !== object.etag) throw badInput('etag', 'etag_mismatch');
  const limits = await uploadLimits(deps, target.config);
  if (object.size > byteBudget(limits)) {
    await target.driver.delete(target.key).catch(() => undefined);
    await releaseName(deps, target);
    assertFits(object.size, limits);
  }
  const outcome = await outcomeOnFinish(deps, target);
  await invalidate(deps, target);
  return { path: target.path.text, size: object.size, etag: object.etag ?? '', mimetype: contentTypeFor(target, input.contentType), outcome };
}
