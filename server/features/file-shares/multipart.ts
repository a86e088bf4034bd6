import type * as v from 'valibot';
import type { FileShare } from '../../../contract/files';
import { PRESIGN_TTL_SECONDS } from '../../../contract/files';
import type {
  multipartCompleteRequestSchema,
  multipartInitRequestSchema,
  MultipartInitResponse,
  MultipartPartsResponse,
  MultipartSignResponse,
} from '../../../contract/multipart';
import { MAX_PART_BYTES, MAX_PART_COUNT } from '../../../contract/parts';
import { oneAtATimePerId } from '../../storage/at-once';
import type { AppDeps, Principal } from '../../context';
import { ApiError } from '../../errors';
import type { StorageDriver } from '../../storage/driver';
import { cleanContentType } from '../../storage/http-headers';
import { cleanFilename, shareObjectKey } from '../../storage/keys';
import { reasonOf } from '../../storage/reason';
import { driverFor, keyFolderOf } from '../../storage/registry';
import { removeFile } from './management';
import { insertPendingFile, isStale, markCommitted, ownUpload } from './pending-uploads';
import { toFileShare, type FileRow } from './records';
import { abortOnFailure, completeUpload, onUpload, openUpload, storedParts, type OpenUpload, type UploadErrors } from './multipart-core';
import { assertSlugFree } from '../shares/slugs';
import { findStorageConfig, resolveUploadConfig } from '../storages/configs';
import { assertFits, uploadLimits } from '../storages/upload-limits';

export type MultipartInitInput = v.InferOutput<typeof multipartInitRequestSchema>;
export type MultipartCompleteInput = v.InferOutput<typeof multipartCompleteRequestSchema>;

/** Which API started the upload: `/api/s3/multipart/*` (local files) or `/api/url/multipart/*` (URL uploads). */
export type UploadFamily = 's3' | 'url';

const storageFailure = (error: unknown) => new ApiError(502, 'storage_unavailable', { reason: reasonOf(error) });
const uploadGone = () => new ApiError(404, 'multipart_upload_not_found', {}, { field: 'upload_id', issue: 'not_found' });
const shareUploadErrors: UploadErrors = { uploadGone, storageFailure };

/**
 * Complete, abort and cancel of one upload run one at a time in this process: a second complete waits for the
 * first and then answers the committed record instead of joining the parts again.
 */
const lockedFile = oneAtATimePerId();

export const partCountOf = (size: number, partSize: number) => Math.max(1, Math.ceil(size / partSize));

/** Bytes of part `partNumber` under the upload's plan: part_size, the remainder for the last. */
export function plannedPartSize(row: Pick<FileRow, 'size' | 'part_size'>, partNumber: number): number {
  const partSize = row.part_size ?? row.size;
  return Math.min(partSize, row.size - (partNumber - 1) * partSize);
}

/**
 * `POST /api/{s3,url}/multipart/init`: the same checks as a presign (storage config the caller may use, max
 * upload size, quota, slug), plus the client's part plan against S3's limits (at most 10,000 parts of at most
 * 5 GiB). Starts the upload on storage and records it as pending; the record holds the slug and counts
 * against the quota until completed, aborted or swept.
 */
export async function initMultipartUpload(
  deps: AppDeps,
  principal: Principal,
  input: MultipartInitInput,
  family: UploadFamily,
): Promise<MultipartInitResponse> {
  if (input.part_size > MAX_PART_BYTES) {
    throw new ApiError(400, 'multipart_part_too_large', { max: MAX_PART_BYTES }, { field: 'part_size', issue: 'too_large' });
  }
  const partCount = partCountOf(input.size, input.part_size);
  if (partCount > MAX_PART_COUNT) {
    throw new ApiError(
      400,
      'multipart_too_many_parts',
      { partSize: input.part_size, partCount },
      { field: 'part_size', issue: 'too_many_parts', partCount, maxParts: MAX_PART_COUNT },
    );
  }
  const config = await resolveUploadConfig(deps, principal, input.s3_config_id || undefined);
  assertFits(input.size, await uploadLimits(deps, config));
  if (input.slug !== undefined) await assertSlugFree(deps.db, 'files', input.slug);

  const driver = driverFor(deps, config);
  const filename = cleanFilename(input.filename);
  const key = shareObjectKey(keyFolderOf(config), undefined, filename);
  const contentType = cleanContentType(input.mimetype);
  const upload = await openUpload(driver, key, contentType, storageFailure);
  return abortOnFailure(upload, async () => {
    const row = await insertPendingFile(deps, principal, {
      slug: input.slug,
      filename,
      mimetype: contentType,
      size: input.size,
      configId: config.id,
      key,
      s3Url: driver.objectUrl(key),
      sourceUrl: family === 'url' ? (input.source_url ?? null) : null,
      uploadId: upload.uploadId,
      partSize: input.part_size,
    });
    return { file_id: row.id, upload_id: upload.uploadId, storage_path: key, part_size: input.part_size, part_count: partCount };
  });
}

interface LiveUpload extends OpenUpload {
  row: FileRow;
  driver: StorageDriver;
  partCount: number;
}

/**
 * The caller's pending multipart upload with this id: 404 for another creator's record or an unknown one, 404
 * (multipart_upload_not_found) when the upload id is not this record's; an abandoned one is cleaned and 410.
 */
async function liveUpload(deps: AppDeps, principal: Principal, fileId: string, uploadId: string): Promise<LiveUpload> {
  const row = await ownUpload(deps, principal, fileId);
  if (row.upload_id === null || row.upload_id !== uploadId) throw uploadGone();
  if (row.status !== 'pending') throw new ApiError(409, 'upload_already_committed');
  if (isStale(row, deps.now())) {
    await removeFile(deps, row).catch(() => undefined);
    throw new ApiError(410, 'upload_expired');
  }
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (!config) throw uploadGone();
  return { row, driver: driverFor(deps, config), key: row.storage_path, uploadId, partCount: partCountOf(row.size, row.part_size ?? row.size) };
}

/** Signing and listing show the upload is alive: the sweep measures staleness from the last of them. */
async function touch(deps: AppDeps, row: FileRow) {
  await deps.db.updateTable('files').set({ updated_at: deps.now().toISOString() }).where('id', '=', row.id).execute();
}

/** `POST /api/{s3,url}/multipart/sign`: PUT URLs for a few parts, each limited to its planned size on LOCAL. */
export async function signParts(
  deps: AppDeps,
  principal: Principal,
  input: { file_id: string; upload_id: string; partNumbers: number[] },
  baseUrl: string,
): Promise<MultipartSignResponse> {
  const upload = await liveUpload(deps, principal, input.file_id, input.upload_id);
  for (const partNumber of input.partNumbers) {
    if (partNumber > upload.partCount) {
      throw new ApiError(
        400,
        'multipart_part_out_of_range',
        { partNumber, partCount: upload.partCount },
        { field: 'partNumbers', issue: 'out_of_range', partNumber, partCount: upload.partCount },
      );
    }
  }
  await touch(deps, upload.row);
  const unique = [...new Set(input.partNumbers)];
  try {
    const urls = await Promise.all(
      unique.map(async (partNumber) => ({
        partNumber,
        url: await upload.driver.presignPart(upload.key, upload.uploadId, partNumber, {
          size: plannedPartSize(upload.row, partNumber),
          expiresInSeconds: PRESIGN_TTL_SECONDS,
          baseUrl,
        }),
      })),
    );
    return { urls, expires_in: PRESIGN_TTL_SECONDS };
  } catch (error) {
    throw storageFailure(error);
  }
}

/** `GET /api/{s3,url}/multipart/parts`: what storage holds, so that a resumed upload sends only the rest. */
export async function listUploadedParts(
  deps: AppDeps,
  principal: Principal,
  input: { file_id: string; upload_id: string },
): Promise<MultipartPartsResponse> {
  const upload = await liveUpload(deps, principal, input.file_id, input.upload_id);
  await touch(deps, upload.row);
  return { parts: await storedParts(upload, shareUploadErrors) };
}

/**
 * `POST /api/{s3,url}/multipart/complete`: the given parts are checked against what storage holds (ascending
 * numbers, ETags, 5 MiB for all but the last, sizes adding up to the declared size: the same 400s on every
 * storage), joined, the object's real size read back, then the share finished like a commit. Completing a
 * completed upload answers its record again.
 */
export async function completeMultipartUpload(
  deps: AppDeps,
  principal: Principal,
  input: MultipartCompleteInput,
): Promise<{ share: FileShare; created: boolean }> {
  return lockedFile(input.file_id, async () => {
    const existing = await ownUpload(deps, principal, input.file_id);
    if (existing.status === 'committed' && existing.upload_id === input.upload_id) {
      return { share: toFileShare(existing, deps.now()), created: false };
    }
    const upload = await liveUpload(deps, principal, input.file_id, input.upload_id);
    const { row, driver } = upload;
    // Joining a large upload takes a while: the sweep must not take it for abandoned meanwhile.
    await touch(deps, row);
    if (input.slug !== undefined && input.slug !== row.slug) await assertSlugFree(deps.db, 'files', input.slug, row.id);

    await completeUpload(upload, input.parts, shareUploadErrors, (total) => {
      if (total !== row.size) {
        throw new ApiError(400, 'upload_size_mismatch', { actual: total, declared: row.size }, { field: 'parts', issue: 'size_mismatch' });
      }
    });
    const head = await onUpload(shareUploadErrors, () => driver.head(row.storage_path));
    if (!head || head.size !== row.size) {
      // Storage joined something else than was checked: nothing to share, and nothing to resume.
      await removeFile(deps, { ...row, status: 'committed' }).catch(() => undefined);
      throw new ApiError(400, 'upload_size_mismatch', { actual: head?.size ?? 0, declared: row.size }, { field: 'parts', issue: 'size_mismatch' });
    }
    const share = await markCommitted(deps, row, head.etag, input);
    return { share, created: true };
  });
}

/** `POST /api/{s3,url}/multipart/abort`: the upload and its parts dropped on storage, then the pending record. */
export async function abortMultipartUpload(
  deps: AppDeps,
  principal: Principal,
  input: { file_id: string; upload_id: string },
): Promise<void> {
  await lockedFile(input.file_id, async () => {
    const row = await ownUpload(deps, principal, input.file_id);
    if (row.upload_id !== input.upload_id) throw uploadGone();
    if (row.status !== 'pending') throw new ApiError(409, 'upload_already_committed');
    await removeFile(deps, row);
  });
}

/**
 * `POST /api/url/cancel`: a cancelled URL upload drops its pending record with whatever reached storage (an
 * object of a single PUT, or a multipart upload's parts). A committed file is not touched (409).
 */
export async function cancelPendingUpload(deps: AppDeps, principal: Principal, fileId: string): Promise<void> {
  await lockedFile(fileId, async () => {
    const row = await ownUpload(deps, principal, fileId);
    if (row.status !== 'pending') throw new ApiError(409, 'upload_already_committed');
    await removeFile(deps, row);
  });
}
