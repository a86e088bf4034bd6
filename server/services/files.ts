import { randomUUID } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import * as v from 'valibot';
import {
  FILE_LINK_TTL_SECONDS,
  PRESIGN_TTL_SECONDS,
  shareOptionsSchema,
  type commitRequestSchema,
  type FileShare,
  type FileState,
  type presignRequestSchema,
  type PresignResponse,
  type PublicFile,
  type updateFileRequestSchema,
} from '../../contract/files';
import type { AppDeps, Principal } from '../context';
import { creatorOf } from '../context';
import type { DB } from '../db/database';
import { insertionOrder } from '../db/dialect';
import type { FilesTable } from '../db/schema';
import { ApiError, badInput, notFound } from '../errors';
import { shareStateOf } from './share-state';
import { hashPassword, verifyPassword } from '../security/passwords';
import { holdLease } from './leases';
import { readSettings } from './settings';
import { assertSlugFree, isSlugConflict, slugTaken, writeWithSlug } from './slugs';
import { findStorageConfig, reservedBytes, resolveUploadConfig, touchStorageConfig } from './storage-configs';
import { cleanContentType } from '../storage/http-headers';
import { cleanFilename, shareObjectKey } from '../storage/keys';
import { reasonOf } from '../storage/reason';
import { driverFor, type StorageConfigRow } from '../storage/registry';
import { viewCountsOf } from './view-counts';
import { moveSharesIntoArea } from './share-area';

export type FileRow = Selectable<FilesTable>;
export type ShareOptions = v.InferOutput<typeof shareOptionsSchema>;
export type PresignInput = v.InferOutput<typeof presignRequestSchema>;
export type CommitInput = v.InferOutput<typeof commitRequestSchema>;
export type UpdateFileInput = v.InferOutput<typeof updateFileRequestSchema>;

/** Every file (admin routes) or one creator's (`admin`, `apikey:<id>`). */
export type FileScope = { all: true } | { all: false; createdBy: string };

const fileNotFound = () => notFound('file_not_found');

const gone = (state: Exclude<FileState, 'active'>) =>
  new ApiError(410, state === 'expired' ? 'file_expired' : 'file_used_up', {}, { state });

export function toFileShare(row: FileRow, now: Date): FileShare {
  return {
    id: row.id,
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: row.size,
    s3_config_id: row.storage_config_id,
    storage_path: row.storage_path,
    s3_url: row.s3_url,
    etag: row.etag,
    remark: row.remark,
    hasPassword: row.password_hash !== null,
    expiresAt: row.expires_at,
    maxViews: row.max_views,
    views: row.views,
    state: shareStateOf(row, now),
    created_by: row.created_by,
    created_at: row.created_at,
    url: `/file/${row.slug}`,
  };
}

// ---------------------------------------------------------------------------------------------- limits

/** `1.5 MB`: sizes in messages (the numbers themselves travel in `data`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Number(value.toFixed(2))} ${units[unit]}`;
}

export interface UploadLimits {
  /** The system setting `max_upload_size` (MB) in bytes. */
  maxUploadBytes: number;
  /** The config's quota; undefined when it has none. */
  quota?: { total: number; used: number };
}

export async function uploadLimits(deps: AppDeps, config: StorageConfigRow): Promise<UploadLimits> {
  const { max_upload_size } = await readSettings(deps.db);
  const maxUploadBytes = Math.floor(max_upload_size * 1024 * 1024);
  if (config.total_storage_bytes === null) return { maxUploadBytes };
  return { maxUploadBytes, quota: { total: config.total_storage_bytes, used: await reservedBytes(deps.db, config.id) } };
}

/** The most bytes one upload may bring: the smaller of the max upload size and what the quota has left. */
export const byteBudget = (limits: UploadLimits) =>
  Math.min(limits.maxUploadBytes, limits.quota ? Math.max(0, limits.quota.total - limits.quota.used) : Infinity);

/** 413 with the figures the client shows: max size first, then the quota. */
export function assertFits(fileSize: number, limits: UploadLimits): void {
  if (fileSize > limits.maxUploadBytes) {
    throw new ApiError(
      413,
      'file_too_large',
      { fileSize: formatBytes(fileSize), maxUploadSize: formatBytes(limits.maxUploadBytes) },
      { fileSize, maxUploadSize: limits.maxUploadBytes },
    );
  }
  if (limits.quota) {
    const remaining = Math.max(0, limits.quota.total - limits.quota.used);
    if (fileSize > remaining) {
      throw new ApiError(
        413,
        'quota_exceeded',
        { fileSize: formatBytes(fileSize), remaining: formatBytes(remaining), total: formatBytes(limits.quota.total) },
        { fileSize, remaining, total: limits.quota.total },
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------- share options

function assertFuture(expiresAt: string | null | undefined, now: Date, field: string) {
  if (expiresAt && expiresAt <= now.toISOString()) {
    throw new ApiError(400, 'share_expiry_past', {}, { field, issue: 'in_past' });
  }
}

/** The columns share options set; `expires_in` hours from now, 0 = never. */
async function shareColumns(options: ShareOptions, now: Date) {
  return {
    remark: options.remark ? options.remark : null,
    password_hash: options.password !== undefined ? await hashPassword(options.password) : null,
    expires_at: options.expires_in > 0 ? new Date(now.getTime() + options.expires_in * 3_600_000).toISOString() : null,
    max_views: options.max_views,
  };
}

/** Share options from the text fields of a form (empty = absent, numbers parsed); 400 naming the field. */
export function shareOptionsFromForm(fields: Record<string, string>): ShareOptions {
  const text = (name: string) => (fields[name] === undefined || fields[name] === '' ? undefined : fields[name]);
  const number = (name: string) => {
    const value = text(name);
    return value !== undefined && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  };
  const result = v.safeParse(shareOptionsSchema, {
    slug: text('slug'),
    remark: text('remark'),
    password: text('password'),
    expires_in: number('expires_in'),
    max_views: number('max_views'),
  });
  if (!result.success) {
    const issue = result.issues[0];
    throw badInput((issue && v.getDotPath(issue)) || 'body', issue?.message ?? 'invalid');
  }
  return result.output;
}

// ---------------------------------------------------------------------------------------------- create

export interface StoredObject {
  config: StorageConfigRow;
  key: string;
  filename: string;
  mimetype: string;
  size: number;
  etag: string;
}

/**
 * The record of a file that is already in storage (form upload). Rechecks the quota now that the size is
 * known, then inserts; if anything refuses, the object is removed again.
 */
export async function recordStoredFile(
  deps: AppDeps,
  principal: Principal,
  stored: StoredObject,
  options: ShareOptions,
): Promise<FileShare> {
  const driver = driverFor(deps, stored.config);
  try {
    const now = deps.now();
    const limits = await uploadLimits(deps, stored.config);
    assertFits(stored.size, limits);
    const columns = await shareColumns(options, now);
    const stamp = now.toISOString();
    const row = await writeWithSlug(deps.db, 'files', options.slug, async (slug) => {
      const values: FileRow = {
        id: randomUUID(),
        slug,
        filename: stored.filename,
        mimetype: stored.mimetype,
        size: stored.size,
        storage_config_id: stored.config.id,
        storage_path: stored.key,
        s3_url: driver.objectUrl(stored.key),
        etag: stored.etag,
        ...columns,
        views: 0,
        status: 'committed',
        upload_id: null,
        part_size: null,
        source_url: null,
        moved_from: null,
        created_by: creatorOf(principal),
        created_at: stamp,
        updated_at: stamp,
      };
      await deps.db.insertInto('files').values(values).execute();
      return values;
    });
    await touchStorageConfig(deps.db, stored.config.id, now);
    return toFileShare(row, now);
  } catch (error) {
    await driver.delete(stored.key).catch(() => undefined);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------- presign + commit

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
  const stamp = deps.now().toISOString();
  return writeWithSlug(deps.db, 'files', pending.slug, async (slug) => {
    const values: FileRow = {
      id: randomUUID(),
      slug,
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
      views: 0,
      status: 'pending',
      upload_id: pending.uploadId ?? null,
      part_size: pending.partSize ?? null,
      source_url: pending.sourceUrl,
      moved_from: null,
      created_by: creatorOf(principal),
      created_at: stamp,
      updated_at: stamp,
    };
    await deps.db.insertInto('files').values(values).execute();
    return values;
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
  const key = shareObjectKey(config.default_folder, input.path, input.filename);
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
  return toFileShare(committed, now);
}

/**
 * Removes abandoned pending uploads (see isStale) with whatever reached storage: the object of a single PUT, the
 * upload and all its parts of a multipart one. A storage that cannot be cleaned keeps the record for the next
 * sweep.
 */
export async function sweepStaleUploads(deps: AppDeps): Promise<{ removed: number; failed: number }> {
  const cutoff = new Date(deps.now().getTime() - PRESIGN_TTL_SECONDS * 1000).toISOString();
  const stale = await deps.db
    .selectFrom('files')
    .selectAll()
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb.and([eb('upload_id', 'is', null), eb('created_at', '<=', cutoff)]),
        eb.and([eb('upload_id', 'is not', null), eb('updated_at', '<=', cutoff)]),
      ]),
    )
    .execute();
  let removed = 0;
  let failed = 0;
  for (const row of stale) {
    try {
      await removeFile(deps, row);
      removed++;
    } catch {
      failed++;
    }
  }
  return { removed, failed };
}

const SWEEP_EVERY_MS = 5 * 60_000;
export const UPLOAD_SWEEP_LEASE = 'upload-sweeper';

/**
 * Sweeps when this instance holds the sweep lease (taking it when free or expired), so that of several instances on
 * one database one at a time sweeps; the holder renews it each time, another takes over when it stops.
 */
export async function sweepAsLeader(deps: AppDeps, everyMs = SWEEP_EVERY_MS) {
  if (!(await holdLease(deps.db, UPLOAD_SWEEP_LEASE, deps.now(), 2 * everyMs))) return undefined;
  const swept = await sweepStaleUploads(deps);
  // Shares stored before the share area existed (or committed since by an upload begun before) move into it.
  await moveSharesIntoArea(deps);
  return swept;
}

/** Runs the sweep every few minutes; returns the stop function. */
export function startUploadSweeper(deps: AppDeps, everyMs = SWEEP_EVERY_MS): () => void {
  const timer = setInterval(() => {
    sweepAsLeader(deps, everyMs).catch((error: unknown) => console.error('Sweeping stale uploads failed:', error));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

// ---------------------------------------------------------------------------------------------- delete

/**
 * The storage object first (and the parts of an unfinished multipart upload), then the record; a storage failure
 * (other than "not there") keeps the record.
 */
export async function removeFile(deps: AppDeps, row: FileRow): Promise<void> {
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (config) {
    const driver = driverFor(deps, config);
    try {
      if (row.status === 'pending' && row.upload_id !== null) await driver.abortMultipart(row.storage_path, row.upload_id);
      await driver.delete(row.storage_path);
    } catch (error) {
      throw new ApiError(502, 'storage_delete_failed', { reason: reasonOf(error) });
    }
  }
  await deps.db.deleteFrom('files').where('id', '=', row.id).execute();
}

function scoped(db: DB, scope: FileScope) {
  let query = db.selectFrom('files').selectAll();
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  return query;
}

/** Management delete: committed files, and the caller's own pending upload after a failed PUT. */
export async function deleteFile(deps: AppDeps, scope: FileScope, id: string): Promise<void> {
  const row = await scoped(deps.db, scope).where('id', '=', id).executeTakeFirst();
  if (!row) throw fileNotFound();
  await removeFile(deps, row);
}

export async function deleteFiles(deps: AppDeps, scope: FileScope, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = await scoped(deps.db, scope).where('id', 'in', unique).execute();
  let deleted = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      await removeFile(deps, row);
      deleted++;
    } catch {
      failed++;
    }
  }
  return { deleted, missing: unique.length - rows.length, failed };
}

// ---------------------------------------------------------------------------------------------- management

async function countFiles(db: DB, scope: FileScope): Promise<number> {
  let query = db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('total')).where('status', '=', 'committed');
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  return Number((await query.executeTakeFirstOrThrow()).total);
}

/** Committed files, newest first. */
export async function listFiles(deps: AppDeps, scope: FileScope, limit: number, offset: number) {
  await viewCountsOf(deps).flush(); // Management reads see every counted view.
  const total = await countFiles(deps.db, scope);
  const rows = await scoped(deps.db, scope)
    .where('status', '=', 'committed')
    .orderBy('created_at', 'desc')
    .orderBy(insertionOrder(deps.db), 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const now = deps.now();
  return { items: rows.map((row) => toFileShare(row, now)), pagination: { total, limit, offset, hasMore: offset + rows.length < total } };
}

async function committedRow(deps: AppDeps, scope: FileScope, id: string): Promise<FileRow> {
  const row = await scoped(deps.db, scope).where('id', '=', id).where('status', '=', 'committed').executeTakeFirst();
  if (!row) throw fileNotFound();
  return row;
}

export async function getFile(deps: AppDeps, scope: FileScope, id: string): Promise<FileShare> {
  await viewCountsOf(deps).flush(); // Management reads see every counted view.
  return toFileShare(await committedRow(deps, scope, id), deps.now());
}

export async function updateFile(deps: AppDeps, scope: FileScope, id: string, input: UpdateFileInput): Promise<FileShare> {
  await viewCountsOf(deps).flush(); // A new view limit starts from every view counted so far.
  await committedRow(deps, scope, id);
  const now = deps.now();
  assertFuture(input.expiresAt, now, 'expiresAt');
  if (input.slug !== undefined) await assertSlugFree(deps.db, 'files', input.slug, id);
  const changes: Updateable<FilesTable> = { updated_at: now.toISOString() };
  if (input.remark !== undefined) changes.remark = input.remark ? input.remark : null;
  if (input.slug !== undefined) changes.slug = input.slug;
  if (input.expiresAt !== undefined) changes.expires_at = input.expiresAt;
  if (input.maxViews !== undefined) changes.max_views = input.maxViews;
  if (input.password !== undefined) changes.password_hash = input.password === null ? null : await hashPassword(input.password);
  try {
    await deps.db.updateTable('files').set(changes).where('id', '=', id).execute();
  } catch (error) {
    if (isSlugConflict(error, 'files')) throw slugTaken();
    throw error;
  }
  return getFile(deps, scope, id);
}

// ---------------------------------------------------------------------------------------------- public

const LINK_PURPOSE = 'file-link';

/** `<expiry seconds>.<signature>`: lets the bearer open this file's view/download links without counting a view. */
export function fileLinkToken(deps: AppDeps, fileId: string): string {
  const expires = Math.floor(deps.now().getTime() / 1000) + FILE_LINK_TTL_SECONDS;
  return `${expires}.${deps.secrets.sign(LINK_PURPOSE, `${fileId}.${expires}`)}`;
}

export function verifyFileLinkToken(deps: AppDeps, fileId: string, token: string): boolean {
  const [expiresText, signature] = token.split('.');
  const expires = Number(expiresText);
  if (!/^\d{1,12}$/.test(expiresText ?? '') || !signature) return false;
  if (!deps.secrets.verify(LINK_PURPOSE, `${fileId}.${expires}`, signature)) return false;
  return expires * 1000 > deps.now().getTime();
}

export function fileLinks(deps: AppDeps, baseUrl: string, row: Pick<FileRow, 'id' | 'slug'>) {
  const token = encodeURIComponent(fileLinkToken(deps, row.id));
  const slug = encodeURIComponent(row.slug);
  return {
    previewUrl: `${baseUrl}/api/file-view/${slug}?token=${token}`,
    downloadUrl: `${baseUrl}/api/file-download/${slug}?token=${token}`,
  };
}

/** The admin, or the API key (still allowed to handle files) that uploaded it. */
export function isFileOwner(principal: Principal, row: Pick<FileRow, 'created_by'>): boolean {
  if (principal.kind === 'admin') return true;
  return principal.kind === 'apiKey' && principal.permissions.file && row.created_by === creatorOf(principal);
}

function publicFileOf(row: FileRow, options: { links?: { previewUrl: string; downloadUrl: string }; owner: boolean }): PublicFile {
  return {
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: row.size,
    remark: row.remark,
    created_at: row.created_at,
    views: row.views,
    maxViews: row.max_views,
    expiresAt: row.expires_at,
    hasPassword: row.password_hash !== null,
    requires_password: row.password_hash !== null && !options.links,
    ...(options.links ?? {}),
    canEdit: options.owner,
    ...(options.owner ? { id: row.id } : {}),
  };
}

async function committedBySlug(db: DB, slug: string): Promise<FileRow> {
  const row = await db.selectFrom('files').selectAll().where('slug', '=', slug).where('status', '=', 'committed').executeTakeFirst();
  if (!row) throw fileNotFound();
  return row;
}

/**
 * One view. Without a view limit it is counted in memory and written within a second (see ViewCounts); with one,
 * in one statement with the limit and the expiry in its WHERE (as pastes do).
 */
async function countView(deps: AppDeps, row: FileRow): Promise<FileRow> {
  if (row.max_views === 0) return { ...row, views: row.views + viewCountsOf(deps).add('files', row.id) };
  const now = deps.now();
  const counted = await deps.db
    .updateTable('files')
    .set((eb) => ({ views: eb('views', '+', 1) }))
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .returningAll()
    .executeTakeFirst();
  if (counted) return counted;
  const latest = await deps.db.selectFrom('files').selectAll().where('id', '=', row.id).executeTakeFirst();
  if (!latest) throw fileNotFound();
  const after = shareStateOf(latest, now);
  throw gone(after === 'active' ? 'used_up' : after);
}

async function checkPassword(row: FileRow, password: string | undefined) {
  if (row.password_hash === null) return;
  if (!password) throw new ApiError(401, 'password_required', {}, { field: 'password', issue: 'required' });
  if (!(await verifyPassword(password, row.password_hash))) {
    throw new ApiError(401, 'wrong_password', {}, { field: 'password', issue: 'wrong' });
  }
}

/**
 * `GET /api/public/files/{slug}` (`via: 'info'`) and `POST …/verify` (`via: 'verify'`). An open file counts a
 * view and carries signed links; a protected one answers info only until verified. Owners count nothing.
 * `peek` (HEAD) runs every check and counts nothing.
 */
export async function openFileInfo(
  deps: AppDeps,
  principal: Principal,
  slug: string,
  access: { via: 'info' | 'verify'; password?: string; peek?: boolean },
  baseUrl: string,
): Promise<PublicFile> {
  const row = await committedBySlug(deps.db, slug);
  const state = shareStateOf(row, deps.now());
  if (state !== 'active') throw gone(state);
  const owner = isFileOwner(principal, row);
  if (owner) return publicFileOf(row, { owner, links: fileLinks(deps, baseUrl, row) });
  if (row.password_hash !== null && access.via === 'info') return publicFileOf(row, { owner });
  await checkPassword(row, access.password);
  if (access.peek) return publicFileOf(row, { owner });
  const counted = await countView(deps, row);
  return publicFileOf(counted, { owner, links: fileLinks(deps, baseUrl, counted) });
}

/**
 * Who may read the bytes (`/api/file-view`, `/api/file-download`): a valid link token (no view counted, the
 * view was counted when it was handed out; only expiry in time still applies), the owner, or a visitor with
 * the password when one is set, who spends a view.
 */
export async function authorizeFileStream(
  deps: AppDeps,
  principal: Principal,
  slug: string,
  access: { token?: string; password?: string; peek: boolean },
): Promise<FileRow> {
  const row = await committedBySlug(deps.db, slug);
  const now = deps.now();
  if (access.token !== undefined) {
    if (shareStateOf(row, now) === 'expired') throw gone('expired');
    if (!verifyFileLinkToken(deps, row.id, access.token)) throw new ApiError(403, 'file_link_invalid');
    return row;
  }
  const state = shareStateOf(row, now);
  if (state !== 'active') throw gone(state);
  if (isFileOwner(principal, row)) return row;
  await checkPassword(row, access.password);
  if (access.peek) return row;
  return countView(deps, row);
}

export async function storageOf(deps: AppDeps, row: FileRow): Promise<StorageConfigRow> {
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (!config) throw new ApiError(404, 'file_missing');
  return config;
}
