import { planUpload, type UploadPlan } from '../../../contract/parts';
import { ApiError } from '../../errors';
import {
  InvalidPartError,
  matchParts,
  MultipartUploadNotFoundError,
  type CompletedPart,
  type StorageDriver,
  type StoredPart,
} from '../../storage/driver';

/**
 * The steps every multipart upload takes on storage, whoever drives it: share uploads, mount uploads, WebDAV PUTs
 * and copies between storages. Each family keeps its own answers (its 404 for a gone upload, its storage
 * failure); the part-list 400s are the same for all.
 */

/** The multipart calls of a storage driver these steps make. */
export type MultipartStorage = Pick<StorageDriver, 'initMultipart' | 'listParts' | 'completeMultipart' | 'abortMultipart'>;

/** A multipart upload open on storage: the object it becomes and the id storage gave it. */
export interface OpenUpload {
  driver: MultipartStorage;
  key: string;
  uploadId: string;
}

/** How one family of upload routes answers what storage throws. */
export interface UploadErrors {
  /** Storage does not know the upload (finished, aborted, or never started). */
  uploadGone: () => ApiError;
  /** Anything else storage threw. */
  storageFailure: (error: unknown) => Error;
}

/** 400 when the key a client sends back with an upload is not the one its path resolves to now. */
export const uploadKeyMismatch = (path: string, field: string) =>
  new ApiError(400, 'fs_key_mismatch', { path }, { field, issue: 'mismatch' });

/** The 400 for a part list storage cannot join; `stored` tells the size of a part that is too small. */
export function invalidPart(error: InvalidPartError, stored: StoredPart[]): ApiError {
  const { partNumber, problem } = error;
  const data = { field: 'parts', issue: problem, partNumber };
  if (problem === 'missing') return new ApiError(400, 'multipart_part_missing', { partNumber }, { ...data, partNumbers: error.partNumbers });
  if (problem === 'etag_mismatch') return new ApiError(400, 'multipart_part_etag_mismatch', { partNumber }, data);
  if (problem === 'too_small') {
    const size = stored.find((part) => part.partNumber === partNumber)?.size ?? 0;
    return new ApiError(400, 'multipart_part_too_small', { partNumber, size }, { ...data, size });
  }
  return new ApiError(400, 'multipart_part_order', { partNumber }, data);
}

/** What a storage call of an upload threw, as `errors` answer it; `stored` is the part list it was checked against. */
export function uploadFailure(errors: UploadErrors, error: unknown, stored: StoredPart[] = []): Error {
  if (error instanceof InvalidPartError) return invalidPart(error, stored);
  if (error instanceof MultipartUploadNotFoundError) return errors.uploadGone();
  return errors.storageFailure(error);
}

/** Runs one storage call of an upload; a failure is answered by uploadFailure. */
export async function onUpload<T>(errors: UploadErrors, work: () => Promise<T>, stored: StoredPart[] = []): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw uploadFailure(errors, error, stored);
  }
}

/** Starts an upload of `key`; a start storage refuses is answered by `storageFailure`. */
export async function openUpload(
  driver: MultipartStorage,
  key: string,
  contentType: string,
  storageFailure: (error: unknown) => Error,
): Promise<OpenUpload> {
  try {
    return { driver, key, uploadId: await driver.initMultipart(key, { contentType }) };
  } catch (error) {
    throw storageFailure(error);
  }
}

/** Starts an upload of a `size`-byte file, with the part plan of contract/parts the client sends it by. */
export async function openPlannedUpload(
  driver: MultipartStorage,
  key: string,
  contentType: string,
  size: number,
  storageFailure: (error: unknown) => Error,
): Promise<UploadPlan & { uploadId: string }> {
  const plan = planUpload(size);
  const { uploadId } = await openUpload(driver, key, contentType, storageFailure);
  return { uploadId, ...plan };
}

/** Drops an upload after a later step failed: that failure is the one to report, so the abort's own is ignored. */
export const abortQuietly = (upload: OpenUpload): Promise<void> =>
  upload.driver.abortMultipart(upload.key, upload.uploadId).catch(() => undefined);

/** Runs the steps that follow an upload's start; when one fails, the upload is aborted so no stray parts stay on storage. */
export async function abortOnFailure<T>(upload: OpenUpload, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    await abortQuietly(upload);
    throw error;
  }
}

/** The parts storage holds for an upload, by part number. */
export const storedParts = (upload: OpenUpload, errors: UploadErrors): Promise<StoredPart[]> =>
  onUpload(errors, () => upload.driver.listParts(upload.key, upload.uploadId));

/**
 * Joins the parts a client names after checking them against what storage holds (ascending numbers, ETags, 5 MiB
 * for all but the last: the same 400s on every storage). `check` sees their total size before anything is joined
 * and may refuse it. Answers the object's ETag and size.
 */
export async function completeUpload(
  upload: OpenUpload,
  parts: CompletedPart[],
  errors: UploadErrors,
  check: (size: number) => void | Promise<void>,
): Promise<{ etag: string; size: number }> {
  const stored = await storedParts(upload, errors);
  let matched: StoredPart[];
  try {
    matched = matchParts(parts, stored);
  } catch (error) {
    throw error instanceof InvalidPartError ? invalidPart(error, stored) : error;
  }
  const size = matched.reduce((sum, part) => sum + part.size, 0);
  await check(size);
  const etag = await onUpload(errors, () => upload.driver.completeMultipart(upload.key, upload.uploadId, parts), stored);
  return { etag, size };
}
