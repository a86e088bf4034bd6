import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type * as v from 'valibot';
import { PRESIGN_TTL_SECONDS } from '../../../contract/files';
import {
  FILE_REQUEST_GRANT_SCHEME,
  FILE_REQUEST_GRANT_SECONDS,
  fileRequestState,
  type createFileRequestSchema,
  type FileRequest,
  type FileRequestGrant,
  type FileRequestTarget,
  type FileRequestUpload,
  type PublicFileRequest,
  type updateFileRequestSchema,
} from '../../../contract/file-requests';
import { apiKeyPrincipal } from '../auth/api-keys';
import type { AppDeps, Principal } from '../../context';
import { creatorOf } from '../../context';
import { newestPage } from '../../db/dialect';
import type { FileRequestsTable, FileRequestUploadsTable } from '../../db/schema';
import { ApiError } from '../../errors';
import { hashPassword, verifyPassword } from '../../security/passwords';
import { randomBase62 } from '../../security/tokens';
import { driverFor } from '../../storage/registry';
import { removeFile } from '../file-shares/management';
import { findStorageConfig } from '../storages/configs';
import { releaseName } from '../fs/name-reservations';
import { writeWithSlug } from '../shares/slugs';

export type FileRequestRow = Selectable<FileRequestsTable>;
export type FileRequestUploadRow = Selectable<FileRequestUploadsTable>;
type CreateInput = v.InferOutput<typeof createFileRequestSchema>;
type UpdateInput = v.InferOutput<typeof updateFileRequestSchema>;

export const fileRequestNotFound = () => new ApiError(404, 'file_request_not_found');

/** Files and bytes received (pending uploads not counted: they are the sender's until completed). */
interface Received {
  files: number;
  bytes: number;
}

async function receivedOf(deps: AppDeps, ids: string[]): Promise<Map<string, Received>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db
    .selectFrom('file_request_uploads')
    .select((eb) => ['request_id', eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('size').as('bytes')])
    .where('request_id', 'in', ids)
    .where('status', '=', 'committed')
    .groupBy('request_id')
    .execute();
  return new Map(rows.map((row) => [row.request_id, { files: Number(row.files), bytes: Number(row.bytes ?? 0) }]));
}

/** A request's limits, its allowed types parsed. */
export const limitsOf = (row: FileRequestRow) => ({
  max_files: row.max_files === null ? null : Number(row.max_files),
  max_file_size: row.max_file_size === null ? null : Number(row.max_file_size),
  max_total_size: row.max_total_size === null ? null : Number(row.max_total_size),
  allowed_types: JSON.parse(row.allowed_types) as string[],
});

export const targetOf = (row: FileRequestRow): FileRequestTarget =>
  row.target_kind === 'folder' ? { kind: 'folder', path: row.target_path ?? '/' } : { kind: 'shares' };

export function toFileRequest(row: FileRequestRow, received: Received, now: Date): FileRequest {
  const limits = limitsOf(row);
  const base = { closed: row.closed === 1, expires_at: row.expires_at, ...limits, files_received: received.files, bytes_received: received.bytes };
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    message: row.message,
    target: targetOf(row),
    has_password: row.password_hash !== null,
    ...base,
    show_uploads: row.show_uploads === 1,
    state: fileRequestState(base, now),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What a sender sees; `maxFileSize` is the limit the server holds files to (limits.ts senderMaxFileSize). */
export const toPublicFileRequest = (request: FileRequest, maxFileSize: number): PublicFileRequest => ({
  slug: request.slug,
  title: request.title,
  message: request.message,
  state: request.state,
  has_password: request.has_password,
  expires_at: request.expires_at,
  max_files: request.max_files,
  max_file_size: maxFileSize,
  max_total_size: request.max_total_size,
  allowed_types: request.allowed_types,
  show_uploads: request.show_uploads,
  files_received: request.files_received,
  bytes_received: request.bytes_received,
});

export async function presentRequest(deps: AppDeps, row: FileRequestRow): Promise<FileRequest> {
  const received = (await receivedOf(deps, [row.id])).get(row.id) ?? { files: 0, bytes: 0 };
  return toFileRequest(row, received, deps.now());
}

/**
 * Whose rights a request's uploads land with: the admin, or the key that created it while it still exists, has
 * not expired and keeps the permissions the target needs. Anything else: the request can take no more files.
 */
export async function creatorPrincipal(deps: AppDeps, row: Pick<FileRequestRow, 'created_by' | 'target_kind'>): Promise<Principal> {
  if (row.created_by === 'admin') return { kind: 'admin', adminId: '', username: 'admin', tokenHash: '' };
  const keyId = row.created_by.replace(/^apikey:/, '');
  const key = await deps.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
  const principal = key && apiKeyPrincipal(key);
  const expired = key?.expires_at != null && new Date(key.expires_at).getTime() <= deps.now().getTime();
  if (principal?.kind !== 'apiKey' || expired || !principal.permissions.file || (row.target_kind === 'folder' && !principal.permissions.mount)) {
    throw new ApiError(410, 'file_request_unavailable');
  }
  return principal;
}

/** `POST /api/file-requests`; a folder target's `targetPath` was checked as its creator's (fs/file-request-uploads.ts). */
export async function createFileRequest(deps: AppDeps, principal: Principal, input: CreateInput, targetPath: string | null): Promise<FileRequest> {
  const now = deps.now().toISOString();
  const id = randomUUID();
  const password_hash = input.password ? await hashPassword(input.password) : null;
  await writeWithSlug(deps.db, 'file_requests', input.slug, (slug) =>
    deps.db
      .insertInto('file_requests')
      .values({
        id,
        slug,
        title: input.title,
        message: input.message,
        target_kind: input.target.kind,
        target_path: targetPath,
        password_hash,
        expires_at: input.expires_at,
        max_files: input.max_files,
        max_file_size: input.max_file_size,
        max_total_size: input.max_total_size,
        allowed_types: JSON.stringify([...new Set(input.allowed_types)]),
        show_uploads: input.show_uploads ? 1 : 0,
        closed: 0,
        created_by: creatorOf(principal),
        created_at: now,
        updated_at: now,
      })
      .execute(),
  );
  return presentRequest(deps, await requestById(deps, id));
}

async function requestById(deps: AppDeps, id: string): Promise<FileRequestRow> {
  const row = await deps.db.selectFrom('file_requests').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fileRequestNotFound();
  return row;
}

/** The caller's request: any for the admin, its own for a key (another's is as unknown as a missing one). */
export async function ownRequest(deps: AppDeps, principal: Principal, id: string): Promise<FileRequestRow> {
  const row = await requestById(deps, id);
  if (principal.kind !== 'admin' && row.created_by !== creatorOf(principal)) throw fileRequestNotFound();
  return row;
}

export async function listFileRequests(deps: AppDeps, principal: Principal, limit: number, offset: number): Promise<{ items: FileRequest[]; total: number }> {
  let query = deps.db.selectFrom('file_requests');
  if (principal.kind !== 'admin') query = query.where('created_by', '=', creatorOf(principal));
  const [rows, count] = await Promise.all([
    newestPage(query.selectAll(), deps.db, limit, offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const received = await receivedOf(deps, rows.map((row) => row.id));
  const now = deps.now();
  return { items: rows.map((row) => toFileRequest(row, received.get(row.id) ?? { files: 0, bytes: 0 }, now)), total: Number(count.total) };
}

export async function updateFileRequest(deps: AppDeps, principal: Principal, id: string, input: UpdateInput): Promise<FileRequest> {
  const row = await ownRequest(deps, principal, id);
  const { password, allowed_types, show_uploads, closed, ...plain } = input;
  const changes = {
    ...plain,
    ...(password !== undefined && { password_hash: password ? await hashPassword(password) : null }),
    ...(allowed_types !== undefined && { allowed_types: JSON.stringify([...new Set(allowed_types)]) }),
    ...(show_uploads !== undefined && { show_uploads: show_uploads ? 1 : 0 }),
    ...(closed !== undefined && { closed: closed ? 1 : 0 }),
    updated_at: deps.now().toISOString(),
  };
  await deps.db.updateTable('file_requests').set(changes).where('id', '=', row.id).execute();
  return presentRequest(deps, await requestById(deps, row.id));
}

/** The request and its records go; the files received stay where they landed (the creator's now). */
export async function deleteFileRequest(deps: AppDeps, principal: Principal, id: string, abortPending: (rows: FileRequestUploadRow[]) => Promise<void>): Promise<void> {
  const row = await ownRequest(deps, principal, id);
  const pending = await deps.db.selectFrom('file_request_uploads').selectAll().where('request_id', '=', row.id).where('status', '=', 'pending').execute();
  await abortPending(pending);
  await deps.db.deleteFrom('file_requests').where('id', '=', row.id).execute();
}

export function toFileRequestUpload(row: FileRequestUploadRow, shareSlug: string | null = null): FileRequestUpload {
  return {
    id: row.id,
    filename: row.filename,
    sent_name: row.sent_name ?? row.filename,
    size: Number(row.size),
    content_type: row.content_type,
    sender_name: row.sender_name,
    path: row.path,
    share_slug: shareSlug,
    created_at: row.created_at,
  };
}

/** The files a request received, newest first, with their share's slug for a shares request; `sender` narrows to one sender's. */
export async function receivedFiles(deps: AppDeps, requestId: string, sender?: string): Promise<FileRequestUpload[]> {
  let query = deps.db
    .selectFrom('file_request_uploads')
    .leftJoin('files', 'files.id', 'file_request_uploads.file_id')
    .selectAll('file_request_uploads')
    .select('files.slug as share_slug')
    .where('file_request_uploads.request_id', '=', requestId)
    .where('file_request_uploads.status', '=', 'committed');
  if (sender !== undefined) query = query.where('file_request_uploads.sender_id', '=', sender);
  const rows = await query.orderBy('file_request_uploads.created_at', 'desc').execute();
  return rows.map(({ share_slug, ...row }) => toFileRequestUpload(row, share_slug ?? null));
}

export async function listRequestUploads(deps: AppDeps, principal: Principal, id: string): Promise<{ items: FileRequestUpload[] }> {
  const row = await ownRequest(deps, principal, id);
  return { items: await receivedFiles(deps, row.id) };
}

// ---------------------------------------------------------------------------------------------------------------
// The sender's side: the request by its slug, and the grant that authorises a sender's uploads.

export async function requestBySlug(deps: AppDeps, slug: string): Promise<FileRequestRow> {
  const row = await deps.db.selectFrom('file_requests').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!row) throw fileRequestNotFound();
  return row;
}

/** 410 for a closed or expired request, 409 for a full one: nothing more is accepted. */
export function assertOpen(request: Pick<FileRequest, 'state'>): void {
  if (request.state === 'closed') throw new ApiError(410, 'file_request_closed');
  if (request.state === 'expired') throw new ApiError(410, 'file_request_expired');
  if (request.state === 'full') throw new ApiError(409, 'file_request_full');
}

/** What a grant says: for which request, which sender (a random id of this grant), under which name, until when. */
export interface GrantClaims {
  requestId: string;
  senderId: string;
  senderName: string | null;
  expiresAt: number;
  /** The request's password when it was given (passwordMark): a grant dies with the password it was earned with. */
  passwordMark?: string;
}

const GRANT_PURPOSE = 'file-request-grant';

/**
 * A keyed fingerprint of the request's password hash (of "no password" when it has none). Each setting of the
 * password hashes it with a new salt, so setting, changing or removing it changes the mark, and the sender, who
 * can read the grant's claims, learns nothing they could test passwords against.
 */
const passwordMark = (deps: AppDeps, row: FileRequestRow) => deps.secrets.sign('file-request-password', row.password_hash ?? '').slice(0, 22);

/**
 * `POST /api/public/file-requests/{slug}/grant`: after the password (when the request has one), a signed grant of
 * FILE_REQUEST_GRANT_SECONDS for one sender. Nothing is stored: the signature is the record.
 */
export async function grantUpload(deps: AppDeps, slug: string, input: { password?: string; sender_name?: string }): Promise<FileRequestGrant> {
  const row = await requestBySlug(deps, slug);
  assertOpen(await presentRequest(deps, row));
  if (row.password_hash !== null) {
    if (!input.password) throw new ApiError(401, 'password_required', {}, { field: 'password', issue: 'required' });
    if (!(await verifyPassword(input.password, row.password_hash))) throw new ApiError(401, 'wrong_password', {}, { field: 'password', issue: 'wrong' });
  }
  const claims: GrantClaims = {
    requestId: row.id,
    senderId: randomBase62(16),
    senderName: input.sender_name || null,
    expiresAt: deps.now().getTime() + FILE_REQUEST_GRANT_SECONDS * 1000,
    passwordMark: passwordMark(deps, row),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { grant: `${payload}.${deps.secrets.sign(GRANT_PURPOSE, payload)}`, expires_in: FILE_REQUEST_GRANT_SECONDS };
}

/**
 * The grant an upload call carries (`Authorization: FileRequest <grant>`): 401 when missing, forged, expired or
 * earned with a password the request no longer has, 403 when it was given for another request.
 */
export function checkGrant(deps: AppDeps, header: string | undefined, request: FileRequestRow): GrantClaims {
  const [scheme, token] = (header ?? '').trim().split(/\s+/);
  if (scheme !== FILE_REQUEST_GRANT_SCHEME || !token) throw new ApiError(401, 'file_request_grant_missing');
  const [payload = '', signature = ''] = token.split('.');
  if (!deps.secrets.verify(GRANT_PURPOSE, payload, signature)) throw new ApiError(401, 'file_request_grant_missing');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as GrantClaims;
  if (claims.expiresAt <= deps.now().getTime()) throw new ApiError(401, 'file_request_grant_expired');
  if (claims.requestId !== request.id) throw new ApiError(403, 'file_request_grant_other');
  // Grants from before marks existed carry none: they pass only while the request has no password.
  const mark = claims.passwordMark ?? (request.password_hash === null ? passwordMark(deps, request) : '');
  if (mark !== passwordMark(deps, request)) throw new ApiError(401, 'file_request_grant_password_changed');
  return claims;
}

/**
 * A part PUT to a signed LOCAL URL (routes/local-storage.ts) of a request's pending upload: refused (410) once the
 * request is closed or expired, though the URL is still valid. A full request still takes the parts of the uploads
 * that filled it. A deleted request's uploads were aborted with it, so their parts find no upload.
 */
export async function assertRequestTakesPart(deps: AppDeps, key: string, uploadId: string): Promise<void> {
  const row = await deps.db
    .selectFrom('file_request_uploads')
    .innerJoin('file_requests', 'file_requests.id', 'file_request_uploads.request_id')
    .selectAll('file_requests')
    .where('file_request_uploads.upload_id', '=', uploadId)
    .where('file_request_uploads.storage_key', '=', key)
    .where('file_request_uploads.status', '=', 'pending')
    .executeTakeFirst();
  if (!row) return;
  const { state } = await presentRequest(deps, row);
  if (state !== 'full') assertOpen({ state });
}

/**
 * Pending uploads given up (aborted, their request deleted, or swept): a folder upload's parts are aborted on its
 * storage; a share's pending record goes the share uploads' way. Then the places are given back.
 */
export async function dropPending(deps: AppDeps, rows: FileRequestUploadRow[]): Promise<void> {
  for (const row of rows) {
    if (row.file_id) {
      const file = await deps.db.selectFrom('files').selectAll().where('id', '=', row.file_id).executeTakeFirst();
      if (file?.status === 'pending') await removeFile(deps, file).catch(() => undefined);
    } else if (row.storage_config_id && row.storage_key && row.upload_id) {
      const config = await findStorageConfig(deps.db, row.storage_config_id);
      if (config) await driverFor(deps, config).abortMultipart(row.storage_key, row.upload_id).catch(() => undefined);
      await releaseName(deps, { configId: row.storage_config_id, key: row.storage_key });
    }
    await deps.db.deleteFrom('file_request_uploads').where('id', '=', row.id).execute();
  }
}

/** The sweep's part: uploads nobody signed or listed for one presign lifetime (see upload-sweeper.ts). */
export async function sweepStaleRequestUploads(deps: AppDeps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - PRESIGN_TTL_SECONDS * 1000).toISOString();
  const stale = await deps.db.selectFrom('file_request_uploads').selectAll().where('status', '=', 'pending').where('updated_at', '<=', cutoff).execute();
  await dropPending(deps, stale);
  return stale.length;
}

