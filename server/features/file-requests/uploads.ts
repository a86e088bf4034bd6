import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { FileRequestInitResponse, FileRequestUpload } from '../../../contract/file-requests';
import { PRESIGN_TTL_SECONDS } from '../../../contract/files';
import { mimeTypeOf } from '../../../contract/mime';
import { multipartCompleteRequestSchema, type MultipartPartsResponse, type MultipartSignResponse } from '../../../contract/multipart';
import { planUpload } from '../../../contract/parts';
import type { AppDeps, Principal } from '../../context';
import { lockTransaction } from '../../db/dialect';
import { ApiError, badInput } from '../../errors';
import { oneAtATimePerId } from '../../storage/at-once';
import { cleanContentType } from '../../storage/http-headers';
import { reasonOf } from '../../storage/reason';
import { driverFor } from '../../storage/registry';
import { removeFile } from '../file-shares/management';
import {
  assertOpen,
  creatorPrincipal,
  presentRequest,
  toFileRequestUpload,
  type FileRequestRow,
  type FileRequestUploadRow,
  type GrantClaims,
  dropPending,
} from './requests';
import { completeMultipartUpload, initMultipartUpload, listUploadedParts, signParts } from '../file-shares/multipart';
import { abortOnFailure, completeUpload, openPlannedUpload, storedParts, type OpenUpload, type UploadErrors } from '../file-shares/multipart-core';
import { findStorageConfig } from '../storages/configs';
import { assertFits, byteBudget, uploadLimits } from '../storages/upload-limits';
import { checkName, childOf, normalizePath, type FsPath } from '../fs/paths';
import { callerOf, resolveInMount, type FsCaller, type MountTarget } from '../fs/resolve';
import { onStorage, storageError } from '../fs/storage-errors';
import { assertFileFits, assertRoomFor, assertSignature, senderMaxFileSize, totalsOf, typeMismatch } from './limits';
import { releaseName, reserveFreeName, UPLOAD_HOLD_MS } from '../fs/free-names';
import { renewName as renewHeld } from '../fs/name-reservations';
import { invalidate, kindAt } from '../fs/writes';
import { emitEvent } from '../events/bus';
import { fileRequestObject, receivedFileObject } from '../events/objects';

/**
 * A sender's uploads through a request: the share upload API's steps (init, sign, parts, complete, abort), each
 * authorised by the sender's grant and done with the rights of the request's creator. A folder request's file goes
 * into its folder under a name nobody has (`name (1).ext`), through the mount's storage; a shares request's file
 * becomes a file share of the creator, through the share uploads' own steps. Every limit is checked at init (the
 * pending upload holds its place) and again at completion.
 */

const uploadGone = () => new ApiError(404, 'file_request_upload_not_found', {}, { field: 'file_id', issue: 'not_found' });
const storageFailure = (error: unknown) => new ApiError(502, 'storage_unavailable', { reason: reasonOf(error) });
const folderErrors: UploadErrors = { uploadGone, storageFailure };
/** Complete and abort of one upload run one at a time in this process. */
const lockedUpload = oneAtATimePerId();

/**
 * Holds a place for the file under every limit: checked and recorded under one lock per request, so that senders
 * starting at once cannot all pass the count before one of them is recorded.
 */
async function reservePlace(deps: AppDeps, request: FileRequestRow, claims: GrantClaims, file: { name: string; size: number; contentType: string }) {
  const id = randomUUID();
  const now = deps.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await lockTransaction(trx, `file-request:${request.id}`);
    const held = await totalsOf(trx, request.id, ['pending', 'committed']);
    assertRoomFor(request, held, file.size);
    await trx
      .insertInto('file_request_uploads')
      .values({
        id,
        request_id: request.id,
        sender_id: claims.senderId,
        sender_name: claims.senderName,
        filename: file.name,
        sent_name: file.name,
        content_type: file.contentType,
        size: file.size,
        status: 'pending',
        path: null,
        storage_config_id: null,
        storage_key: null,
        upload_id: null,
        file_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  return id;
}

/** The request's folder as its creator reaches it now (a key's rights may have changed since the request was made). */
async function folderTarget(deps: AppDeps, request: FileRequestRow, creator: Principal, path: FsPath): Promise<MountTarget> {
  const folder = normalizePath(request.target_path ?? '/');
  // Only the folder itself: the name was checked, so nothing can point below or beside it.
  if (path.segments.length !== folder.segments.length + 1 || !path.text.startsWith(folder.text.replace(/\/?$/, '/'))) throw badInput('filename', 'invalid_name');
  return resolveInMount(deps, callerOf(creator), path);
}

/**
 * The first of `name.ext`, `name (1).ext`… that neither storage nor another writer holds, reserved for this
 * upload (free-names.ts) before any byte is written: senders of one name at once each get their own.
 */
async function freeTarget(deps: AppDeps, request: FileRequestRow, creator: Principal, name: string): Promise<MountTarget> {
  const folder = normalizePath(request.target_path ?? '/');
  const target = await folderTarget(deps, request, creator, childOf(folder, name));
  return reserveFreeName(deps, target, UPLOAD_HOLD_MS, 0);
}

/**
 * A folder target, checked as its creator: a folder of a mount they may write (inside a key's base path, outside
 * the reserved areas), normalised to end in `/`. A folder not there yet is made.
 */
export async function requestFolder(deps: AppDeps, caller: FsCaller, raw: string): Promise<string> {
  const path = normalizePath(raw, 'target.path');
  if (path.segments.length === 0) throw badInput('target.path', 'invalid_path');
  let target: MountTarget;
  try {
    target = await resolveInMount(deps, caller, path);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      throw new ApiError(403, 'file_request_target_forbidden', { path: path.text }, { field: 'target.path' });
    }
    throw error;
  }
  const kind = await kindAt(target);
  if (kind === 'file') throw badInput('target.path', 'not_a_folder');
  if (kind === 'none') {
    await onStorage(path.text, () => target.driver.makeFolder(target.key));
    await invalidate(deps, target);
  }
  return `${path.text.replace(/\/$/, '')}/`;
}

/** `POST .../multipart/init`: the request open, the file within every limit; then an upload on the target's storage. */
export async function initRequestUpload(
  deps: AppDeps,
  request: FileRequestRow,
  claims: GrantClaims,
  input: { filename: string; content_type: string; size: number; part_size: number },
): Promise<FileRequestInitResponse> {
  assertOpen(await presentRequest(deps, request));
  const name = checkName(input.filename.split(/[/\\]/).pop() ?? '', 'filename');
  assertFileFits(request, { name, size: input.size }, await senderMaxFileSize(deps, request));
  const creator = await creatorPrincipal(deps, request);
  const contentType = cleanContentType(input.content_type && input.content_type !== 'application/octet-stream' ? input.content_type : mimeTypeOf(name));
  const id = await reservePlace(deps, request, claims, { name, size: input.size, contentType });
  try {
    return request.target_kind === 'folder'
      ? await initInFolder(deps, request, creator, id, { name, contentType, size: input.size, partSize: input.part_size })
      : await initAsShare(deps, creator, id, { name, contentType, size: input.size, partSize: input.part_size });
  } catch (error) {
    await deps.db.deleteFrom('file_request_uploads').where('id', '=', id).execute();
    throw error;
  }
}

async function initInFolder(
  deps: AppDeps,
  request: FileRequestRow,
  creator: Principal,
  id: string,
  file: { name: string; contentType: string; size: number; partSize: number },
): Promise<FileRequestInitResponse> {
  // The client's plan must be the server's: both grow the part size the same way past 10,000 parts.
  const plan = planUpload(file.size);
  if (file.partSize !== plan.partSize) throw badInput('part_size', 'mismatch');
  const target = await freeTarget(deps, request, creator, file.name);
  try {
    assertFits(file.size, await uploadLimits(deps, target.config));
    const { uploadId } = await openPlannedUpload(target.driver, target.key, file.contentType, file.size, (error) => storageError(target.path.text, error));
    const upload: OpenUpload = { driver: target.driver, key: target.key, uploadId };
    return await abortOnFailure(upload, async () => {
      const filename = target.path.segments.at(-1) ?? file.name;
      await deps.db
        .updateTable('file_request_uploads')
        .set({ filename, path: target.path.text, storage_config_id: target.config.id, storage_key: target.key, upload_id: uploadId })
        .where('id', '=', id)
        .execute();
      return { file_id: id, upload_id: uploadId, filename, part_size: plan.partSize, part_count: plan.partCount };
    });
  } catch (error) {
    await releaseName(deps, target);
    throw error;
  }
}

async function initAsShare(
  deps: AppDeps,
  creator: Principal,
  id: string,
  file: { name: string; contentType: string; size: number; partSize: number },
): Promise<FileRequestInitResponse> {
  const init = await initMultipartUpload(deps, creator, { filename: file.name, mimetype: file.contentType, size: file.size, part_size: file.partSize }, 's3');
  await deps.db
    .updateTable('file_request_uploads')
    .set({ file_id: init.file_id, upload_id: init.upload_id, storage_key: init.storage_path })
    .where('id', '=', id)
    .execute();
  return { file_id: id, upload_id: init.upload_id, filename: file.name, part_size: init.part_size, part_count: init.part_count };
}

/** The sender's own pending upload with this id and upload id; anyone else's, or a finished one, is unknown. */
async function senderUpload(deps: AppDeps, request: FileRequestRow, claims: GrantClaims, ref: { file_id: string; upload_id: string }): Promise<FileRequestUploadRow> {
  const row = await deps.db
    .selectFrom('file_request_uploads')
    .selectAll()
    .where('id', '=', ref.file_id)
    .where('request_id', '=', request.id)
    .where('sender_id', '=', claims.senderId)
    .executeTakeFirst();
  if (!row || row.upload_id !== ref.upload_id) throw uploadGone();
  return row;
}

/** A folder upload's target, still the creator's to write and still the key it started with. */
async function liveFolderUpload(deps: AppDeps, request: FileRequestRow, creator: Principal, row: FileRequestUploadRow): Promise<{ target: MountTarget; upload: OpenUpload }> {
  const target = await folderTarget(deps, request, creator, normalizePath(row.path ?? ''));
  if (target.key !== row.storage_key || target.config.id !== row.storage_config_id || !row.upload_id) throw uploadGone();
  return { target, upload: { driver: target.driver, key: target.key, uploadId: row.upload_id } };
}

/** Signing and listing show the upload is alive: the sweep measures staleness from the last of them. */
async function touch(deps: AppDeps, row: FileRequestUploadRow) {
  await deps.db.updateTable('file_request_uploads').set({ updated_at: deps.now().toISOString() }).where('id', '=', row.id).execute();
  if (!row.file_id && row.storage_config_id && row.storage_key) await renewHeld(deps, { configId: row.storage_config_id, key: row.storage_key }, UPLOAD_HOLD_MS);
}

/** No bytes are accepted once the request closed or expired (a full one finishes what it had let start). */
async function assertAccepting(deps: AppDeps, request: FileRequestRow) {
  const state = (await presentRequest(deps, request)).state;
  if (state === 'closed') throw new ApiError(410, 'file_request_closed');
  if (state === 'expired') throw new ApiError(410, 'file_request_expired');
}

/** `POST .../multipart/sign`: part URLs, each limited to its planned size on LOCAL. */
export async function signRequestParts(
  deps: AppDeps,
  request: FileRequestRow,
  claims: GrantClaims,
  input: { file_id: string; upload_id: string; partNumbers: number[] },
  baseUrl: string,
): Promise<MultipartSignResponse> {
  const row = await senderUpload(deps, request, claims, input);
  if (row.status !== 'pending') throw uploadGone();
  await assertAccepting(deps, request);
  const creator = await creatorPrincipal(deps, request);
  await touch(deps, row);
  if (row.file_id) return signParts(deps, creator, { file_id: row.file_id, upload_id: input.upload_id, partNumbers: input.partNumbers }, baseUrl);
  const { target, upload } = await liveFolderUpload(deps, request, creator, row);
  const plan = planUpload(Number(row.size));
  const urls = await Promise.all(
    [...new Set(input.partNumbers)].map(async (partNumber) => {
      if (partNumber > plan.partCount) throw badInput('partNumbers', 'out_of_range');
      const size = Math.min(plan.partSize, Number(row.size) - (partNumber - 1) * plan.partSize);
      try {
        return { partNumber, url: await target.driver.presignPart(upload.key, upload.uploadId, partNumber, { size, expiresInSeconds: PRESIGN_TTL_SECONDS, baseUrl }) };
      } catch (error) {
        throw storageFailure(error);
      }
    }),
  );
  return { urls, expires_in: PRESIGN_TTL_SECONDS };
}

/** `GET .../multipart/parts`: what storage holds, so that an upload resumed after a reload sends only the rest. */
export async function listRequestParts(deps: AppDeps, request: FileRequestRow, claims: GrantClaims, ref: { file_id: string; upload_id: string }): Promise<MultipartPartsResponse> {
  const row = await senderUpload(deps, request, claims, ref);
  if (row.status !== 'pending') throw uploadGone();
  const creator = await creatorPrincipal(deps, request);
  await touch(deps, row);
  if (row.file_id) return listUploadedParts(deps, creator, { file_id: row.file_id, upload_id: ref.upload_id });
  const { upload } = await liveFolderUpload(deps, request, creator, row);
  return { parts: await storedParts(upload, folderErrors) };
}

/**
 * The limits once more before the parts are joined: the request may have been closed or its limits lowered since
 * init. A cheap refusal before any joining; markReceived checks the count and total again under the request's lock.
 */
async function assertStillFits(deps: AppDeps, request: FileRequestRow, row: FileRequestUploadRow) {
  await assertAccepting(deps, request);
  assertFileFits(request, { name: row.filename, size: Number(row.size) }, await senderMaxFileSize(deps, request));
  assertRoomFor(request, await totalsOf(deps.db, request.id, ['committed'], row.id), Number(row.size));
}

/** `POST .../multipart/complete`: every limit again, the parts joined and checked, the file recorded as received. */
export async function completeRequestUpload(
  deps: AppDeps,
  request: FileRequestRow,
  claims: GrantClaims,
  input: { file_id: string; upload_id: string; parts: { partNumber: number; etag: string }[] },
): Promise<FileRequestUpload> {
  return lockedUpload(input.file_id, async () => {
    const row = await senderUpload(deps, request, claims, input);
    if (row.status === 'committed') return toFileRequestUpload(row);
    await assertStillFits(deps, request, row);
    const creator = await creatorPrincipal(deps, request);
    await touch(deps, row);
    if (row.file_id) {
      const { share } = await completeMultipartUpload(deps, creator, v.parse(multipartCompleteRequestSchema, { file_id: row.file_id, upload_id: input.upload_id, parts: input.parts }));
      const file = await deps.db.selectFrom('files').selectAll().where('id', '=', row.file_id).executeTakeFirstOrThrow();
      const config = await findStorageConfig(deps.db, file.storage_config_id);
      const undo = () => removeFile(deps, file).catch(() => undefined);
      if (config && !(await assertSignature(request, driverFor(deps, config), file.storage_path, row))) {
        await undo();
        await deps.db.deleteFrom('file_request_uploads').where('id', '=', row.id).execute();
        throw typeMismatch();
      }
      return markReceived(deps, request, row, undo, share.slug);
    }
    const { target, upload } = await liveFolderUpload(deps, request, creator, row);
    // Never overwrite: a file that appeared at the name since init (another client) keeps its place.
    if ((await kindAt(target)) !== 'none') {
      await discardFolderUpload(deps, row, target, upload);
      throw new ApiError(409, 'fs_exists', { path: target.path.text }, { field: 'filename', issue: 'exists' });
    }
    await completeUpload(upload, input.parts, folderErrors, async (total) => {
      if (total !== Number(row.size)) {
        throw new ApiError(400, 'upload_size_mismatch', { actual: total, declared: Number(row.size) }, { field: 'parts', issue: 'size_mismatch' });
      }
      const limits = await uploadLimits(deps, target.config);
      if (total > byteBudget(limits)) assertFits(total, limits);
    });
    const undo = async () => {
      await target.driver.delete(target.key).catch(() => undefined);
      await releaseName(deps, target);
    };
    if (!(await assertSignature(request, target.driver, target.key, row))) {
      await undo();
      await deps.db.deleteFrom('file_request_uploads').where('id', '=', row.id).execute();
      throw typeMismatch();
    }
    const received = await markReceived(deps, request, row, undo);
    await releaseName(deps, target);
    await invalidate(deps, target);
    return received;
  });
}

/**
 * Records the file as received when it still fits the request's count and total beside the files received
 * before it: checked and recorded under the request's lock, so that completions at once cannot all pass a
 * lowered limit. A file that no longer fits is undone (`undo` removes what was stored) and its place given back.
 */
async function markReceived(
  deps: AppDeps,
  request: FileRequestRow,
  row: FileRequestUploadRow,
  undo: () => Promise<unknown>,
  shareSlug: string | null = null,
): Promise<FileRequestUpload> {
  const now = deps.now().toISOString();
  const refused = await deps.db.transaction().execute(async (trx) => {
    await lockTransaction(trx, `file-request:${request.id}`);
    try {
      assertRoomFor(request, await totalsOf(trx, request.id, ['committed'], row.id), Number(row.size));
    } catch (error) {
      return error;
    }
    await trx.updateTable('file_request_uploads').set({ status: 'committed', created_at: now, updated_at: now }).where('id', '=', row.id).execute();
    return undefined;
  });
  if (refused) {
    await undo();
    await deps.db.deleteFrom('file_request_uploads').where('id', '=', row.id).execute();
    throw refused;
  }
  const received = toFileRequestUpload({ ...row, status: 'committed', created_at: now, updated_at: now }, shareSlug);
  emitEvent(deps, 'file_request.received', { request: fileRequestObject(request), file: receivedFileObject(received) });
  // The file that filled the request announces it too.
  if ((await presentRequest(deps, request)).state === 'full') emitEvent(deps, 'file_request.full', fileRequestObject(request));
  return received;
}

async function discardFolderUpload(deps: AppDeps, row: FileRequestUploadRow, target: MountTarget, upload: OpenUpload) {
  await upload.driver.abortMultipart(upload.key, upload.uploadId).catch(() => undefined);
  await releaseName(deps, target);
  await deps.db.deleteFrom('file_request_uploads').where('id', '=', row.id).execute();
}

/** `POST .../multipart/abort`: the parts dropped on storage, the place given back. */
export async function abortRequestUpload(deps: AppDeps, request: FileRequestRow, claims: GrantClaims, ref: { file_id: string; upload_id: string }): Promise<void> {
  await lockedUpload(ref.file_id, async () => {
    const row = await senderUpload(deps, request, claims, ref);
    if (row.status !== 'pending') throw new ApiError(409, 'upload_already_committed');
    await dropPending(deps, [row]);
  });
}
