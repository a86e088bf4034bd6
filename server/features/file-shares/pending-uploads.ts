import type { Updateable } from 'kysely';
import { emitEvent } from '../events/bus';
import { fileObject } from '../events/objects';
import type * as v from 'valibot';
import {
  PRESIGN_TTL_SECONDS,
  type commitRequestSchema,
  type FileShare,
  type presignRequestSchema,
  type PresignResponse,
} from '../../../contract/files';
import type { AppDeps, Principal } from '../../context';
import { creatorOf } from '../../context';
import type { FilesTable } from '../../db/schema';
import { ApiError } from '../../errors';
import { cleanContentType } from '../../storage/http-headers';
import { cleanFilename, shareObjectKey } from '../../storage/keys';
import { reasonOf } from '../../storage/reason';
import { driverFor, keyFolderOf } from '../../storage/registry';
import { removeFile } from './management';
import { fileNotFound, insertFile, shareColumns, toFileShare, type FileRow, type ShareOptions } from './records';
import { assertSlugFree, isSlugConflict, slugTaken } from '../shares/slugs';
import { findStorageConfig, resolveUploadConfig, touchStorageConfig } from '../storages/configs';
import { assertFits, uploadLimits } from '../storages/upload-limits';

export type PresignInput = v.InferOutput<typeof presignRequestSchema>;
export type CommitInput = v.InferOutput<typeof commitRequestSchema>;

/** What a pending upload record is made of; the rest starts empty until commit. */
export interface PendingFile {
  slug: string | undefined;
  filename: string;
  mimetype: string;
  size: number;
  configId: string;
  key: string;
  s3Url: string | null;
  sourceUrl: string | null;
  uploadId?: string;
  partSize?: number;
}

/**
 * Records an upload whose bytes have not arrived: it holds its slug (random when none is asked for) and counts
 * against the quota until it is committed or swept.
 */
export async function insertPendingFile(deps: AppDeps, principal: Principal, pending: PendingFile): Promise<FileRow> {
  return insertFile(deps.db, principal, deps.now(), pending.slug, {
    filename: pending.filename,
    mimetype: pending.mimetype,
    size: pending.size,
    storage_config_id: pending.configId,
    storage_path: pending.key,
    s3_url: pending.s3Url,
    etag: null,
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: 0,
    status: 'pending',
    upload_id: pending.uploadId ?? null,
    part_size: pending.partSize ?? null,
    source_url: pending.sourceUrl,
  });
}

/**
 * `POST /api/s3/presign`: checks the limits on the declared size, records a pending upload (which holds the
 * slug and counts against the quota until committed or swept) and hands out a PUT URL.
 */
export async function presignUpload(
  deps: AppDeps,
  principal: Principal,
  input: PresignInput,
  baseUrl: string,
  sourceUrl: string | null = null,
): Promise<PresignResponse> {
  const config = await resolveUploadConfig(deps, principal, input.s3_config_id || undefined);
  assertFits(input.size, await uploadLimits(deps, config));
  const driver = driverFor(deps, config);
  const key = shareObjectKey(keyFolderOf(config), input.path, input.filename);
  const contentType = cleanContentType(input.mimetype);
  const row = await insertPendingFile(deps, principal, {
    slug: input.slug,
    filename: cleanFilename(input.filename),
    mimetype: contentType,
    size: input.size,
    configId: config.id,
    key,
    s3Url: driver.objectUrl(key),
    sourceUrl,
  });
  let uploadUrl: string;
  try {
    uploadUrl = await driver.presignPut(key, { contentType, size: input.size, expiresInSeconds: PRESIGN_TTL_SECONDS, baseUrl });
  } catch (error) {
    await deps.db.deleteFrom('files').where('id', '=', row.id).execute();
    throw new ApiError(502, 'storage_unavailable', { reason: reasonOf(error) });
  }
  return {
    upload_url: uploadUrl,
    file_id: row.id,
    storage_path: key,
    s3_url: row.s3_url ?? '',
    slug: row.slug,
    provider_type: config.provider_type,
    contentType,
    expires_in: PRESIGN_TTL_SECONDS,
  };
}

/**
 * When a pending upload is abandoned: a single PUT one presign lifetime after it was created; a multipart upload
 * one presign lifetime after its last sign or list of parts (a large upload may take longer than an hour).
 */
export const isStale = (row: Pick<FileRow, 'created_at' | 'updated_at' | 'upload_id'>, now: Date) =>
  new Date(row.upload_id === null ? row.created_at : row.updated_at).getTime() + PRESIGN_TTL_SECONDS * 1000 <= now.getTime();

/** The caller's own upload record (admin: its own, a key: its own); 404 for anyone else's. */
export async function ownUpload(deps: AppDeps, principal: Principal, fileId: string): Promise<FileRow> {
  const row = await deps.db
    .selectFrom('files')
    .selectAll()
    .where('id', '=', fileId)
    .where('created_by', '=', creatorOf(principal))
    .executeTakeFirst();
  if (!row) throw fileNotFound();
  return row;
}

/**
 * `POST /api/s3/commit`: the object must be in storage with the declared size; then the share options apply
 * and the record is committed. Committing twice answers the committed record again.
 */
export async function commitUpload(deps: AppDeps, principal: Principal, input: CommitInput): Promise<{ share: FileShare; created: boolean }> {
  const row = await ownUpload(deps, principal, input.file_id);
  const now = deps.now();
  if (row.status === 'committed') return { share: toFileShare(row, now), created: false };
  if (row.upload_id !== null) throw new ApiError(400, 'upload_is_multipart', {}, { field: 'file_id', issue: 'multipart' });

  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (!config) throw fileNotFound();
  const driver = driverFor(deps, config);
  if (isStale(row, now)) {
    await removeFile(deps, row).catch(() => undefined);
    throw new ApiError(410, 'upload_expired');
  }
  for (const [field, given, expected] of [
    ['s3_config_id', input.s3_config_id, row.storage_config_id],
    ['storage_path', input.storage_path, row.storage_path],
    ['size', input.size, row.size],
  ] as const) {
    if (given !== undefined && given !== '' && given !== expected) {
      throw new ApiError(400, 'upload_mismatch', { field }, { field, issue: 'mismatch' });
    }
  }
  let head;
  try {
    head = await driver.head(row.storage_path);
  } catch (error) {
    throw new ApiError(502, 'storage_unavailable', { reason: reasonOf(error) });
  }
  if (!head) throw new ApiError(400, 'upload_not_received', {}, { field: 'file_id', issue: 'not_uploaded' });
  if (head.size !== row.size) {
    await driver.delete(row.storage_path).catch(() => undefined);
    throw new ApiError(400, 'upload_size_mismatch', { actual: head.size, declared: row.size }, { field: 'size', issue: 'mismatch' });
  }
  if (input.slug !== undefined && input.slug !== row.slug) await assertSlugFree(deps.db, 'files', input.slug, row.id);
  const share = await markCommitted(deps, row, head.etag, input);
  return { share, created: true };
}

/** The last step of every direct upload: share options applied, ETag recorded, the record committed. */
export async function markCommitted(
  deps: AppDeps,
  row: FileRow,
  etag: string,
  input: ShareOptions & { filename?: string; mimetype?: string },
): Promise<FileShare> {
  const now = deps.now();
  const changes: Updateable<FilesTable> = {
    ...(await shareColumns(input, now)),
    etag,
    status: 'committed',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  if (input.slug !== undefined) changes.slug = input.slug;
  if (input.filename !== undefined) changes.filename = cleanFilename(input.filename);
  if (input.mimetype !== undefined && input.mimetype !== '') changes.mimetype = cleanContentType(input.mimetype);
  try {
    await deps.db.updateTable('files').set(changes).where('id', '=', row.id).where('status', '=', 'pending').execute();
  } catch (error) {
    if (isSlugConflict(error, 'files')) throw slugTaken();
    throw error;
  }
  await touchStorageConfig(deps.db, row.storage_config_id, now);
  const committed = await deps.db.selectFrom('files').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  emitEvent(deps, 'file.created', fileObject(committed));
  return toFileShare(committed, now);
}
