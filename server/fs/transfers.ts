import type { Readable } from 'node:stream';
import type * as v from 'valibot';
import {
  type fsMultipartCompleteRequestSchema,
  type FsMultipartInit,
  type FsPresign,
  type fsPresignCommitRequestSchema,
  type FsUploadResult,
} from '../../contract/fs';
import { PRESIGN_TTL_SECONDS } from '../../contract/files';
import { mimeTypeOf } from '../../contract/mime';
import type { AppDeps } from '../context';
import { ApiError, badInput } from '../errors';
import { assertFits, byteBudget, uploadLimits } from '../services/upload-limits';
import {
  abortQuietly,
  completeUpload,
  onUpload,
  openPlannedUpload,
  uploadKeyMismatch,
  type OpenUpload,
  type UploadErrors,
} from '../services/multipart-core';
import { LARGEST_PLANNED_PART_BYTES } from '../../contract/parts';
import type { StoredPart } from '../storage/driver';
import { cleanContentType } from '../storage/http-headers';
import { nameOf, type FsPath } from './paths';
import { resolveInMount, type FsCaller, type MountTarget } from './resolve';
import { onStorage, storageError } from './storage-errors';
import { invalidate, kindAt } from './writes';

const contentTypeFor = (target: MountTarget, given: string | undefined) =>
  cleanContentType(given && given !== 'application/octet-stream' ? given : mimeTypeOf(nameOf(target.path)));

/** The opaque key of part, complete, abort and commit calls must be the one the path resolves to now. */
async function uploadTarget(deps: AppDeps, caller: FsCaller, path: FsPath, key: string): Promise<MountTarget> {
  const target = await resolveInMount(deps, caller, path);
  if (target.key !== key) throw uploadKeyMismatch(path.text, 'key');
  return target;
}

async function assertWritableFile(target: MountTarget, size: number, deps: AppDeps) {
  if (target.inner.length === 0 || (await kindAt(target)) === 'folder') {
    throw new ApiError(409, 'fs_exists', { path: target.path.text }, { field: 'path', issue: 'is_a_folder' });
  }
  assertFits(size, await uploadLimits(deps, target.config));
}

const fsUploadErrors = (path: FsPath): UploadErrors => ({
  uploadGone: () => new ApiError(404, 'fs_upload_not_found', {}, { field: 'uploadId', issue: 'not_found' }),
  storageFailure: (error) => storageError(path.text, error),
});

export async function initFsMultipart(
  deps: AppDeps,
  target: MountTarget,
  input: { contentType: string; fileSize: number },
): Promise<FsMultipartInit> {
  await assertWritableFile(target, input.fileSize, deps);
  const { storageFailure } = fsUploadErrors(target.path);
  const { uploadId, ...plan } = await openPlannedUpload(target.driver, target.key, contentTypeFor(target, input.contentType), input.fileSize, storageFailure);
  return { uploadId, path: target.path.text, key: target.key, ...plan };
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
    return await onUpload(fsUploadErrors(query.path), () => target.driver.uploadPart(target.key, query.uploadId, query.partNumber, body, size));
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
      assertFits(total, limits);
    }
  });
  await invalidate(deps, target);
  return { path: target.path.text, size, etag, mimetype: contentTypeFor(target, input.contentType) };
}

export async function abortFsMultipart(deps: AppDeps, caller: FsCaller, path: FsPath, input: { uploadId: string; key: string }): Promise<void> {
  const target = await uploadTarget(deps, caller, path, input.key);
  await onUpload(fsUploadErrors(path), () => target.driver.abortMultipart(target.key, input.uploadId));
}

export async function presignFsUpload(
  deps: AppDeps,
  target: MountTarget,
  input: { contentType: string; fileSize: number },
  baseUrl: string,
): Promise<FsPresign> {
  await assertWritableFile(target, input.fileSize, deps);
  const contentType = contentTypeFor(target, input.contentType);
  const uploadUrl = await onStorage(target.path.text, () =>
    target.driver.presignPut(target.key, { contentType, size: input.fileSize, expiresInSeconds: PRESIGN_TTL_SECONDS, baseUrl }),
  );
  return {
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
    assertFits(object.size, limits);
  }
  await invalidate(deps, target);
  return { path: target.path.text, size: object.size, etag: object.etag ?? '', mimetype: contentTypeFor(target, input.contentType) };
}
