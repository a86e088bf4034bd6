// A request's limits as the server holds a sender's upload to them (./file-request-uploads.ts): per file, for the
// request's count and total, and the bytes' signature against the name.

import { fileRefusal } from '../../../contract/file-requests';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import type { StorageDriver } from '../../storage/driver';
import { bytesMatchName, storedHead } from '../../security/file-signatures';
import { limitsOf, type FileRequestRow, type FileRequestUploadRow } from './requests';
import { formatBytes } from '../storages/upload-limits';
import { readSettings } from '../settings/settings';

interface Totals {
  files: number;
  bytes: number;
}

/** Files and bytes the request holds or has promised to pending uploads, but `except`. */
export async function totalsOf(db: AppDeps['db'], requestId: string, statuses: ('pending' | 'committed')[], except?: string): Promise<Totals> {
  let query = db
    .selectFrom('file_request_uploads')
    .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('size').as('bytes')])
    .where('request_id', '=', requestId)
    .where('status', 'in', statuses);
  if (except !== undefined) query = query.where('id', '!=', except);
  const row = await query.executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
}

/**
 * The largest file a sender may send: the request's own limit, or the server's maximum upload where that is smaller,
 * so that the page states the real limit and a file over it is refused before any byte is sent.
 */
export async function senderMaxFileSize(deps: AppDeps, request: FileRequestRow): Promise<number> {
  const { max_upload_size } = await readSettings(deps.db);
  const serverMax = Math.floor(max_upload_size * 1024 * 1024);
  const own = limitsOf(request).max_file_size;
  return own === null ? serverMax : Math.min(own, serverMax);
}

/** The per-file limits: type by name (400) and size (413), against `senderMaxFileSize`. */
export function assertFileFits(request: FileRequestRow, file: { name: string; size: number }, maxFileSize: number) {
  const limits = { ...limitsOf(request), max_file_size: maxFileSize };
  const refusal = fileRefusal(file, limits);
  if (refusal === 'type_not_allowed') throw new ApiError(400, 'file_request_type_not_allowed', {}, { field: 'filename', issue: 'type_not_allowed' });
  if (refusal === 'too_large') {
    throw new ApiError(413, 'file_request_file_too_large', { max: formatBytes(maxFileSize) }, { field: 'size', limit: maxFileSize });
  }
}

/** Count (409) and total (413) with `size` more bytes on top of `held`. */
export function assertRoomFor(request: FileRequestRow, held: Totals, size: number) {
  const limits = limitsOf(request);
  if (limits.max_files !== null && held.files + 1 > limits.max_files) throw new ApiError(409, 'file_request_full');
  if (limits.max_total_size !== null && held.bytes + size > limits.max_total_size) {
    throw new ApiError(413, 'file_request_total_exceeded', { max: formatBytes(limits.max_total_size) }, { field: 'size', limit: limits.max_total_size });
  }
}

/**
 * Where a request limits types, the bytes must say what the name says for the types whose signature is known (the
 * receipts' images and PDF): a `.pdf` that is no PDF, or a PDF named `.png` or `.txt`, is refused.
 */
export async function assertSignature(request: FileRequestRow, driver: StorageDriver, key: string, row: FileRequestUploadRow): Promise<boolean> {
  if (limitsOf(request).allowed_types.length === 0) return true;
  return bytesMatchName(row.filename, await storedHead(driver, key, Number(row.size)));
}

export const typeMismatch = () => new ApiError(400, 'file_request_type_mismatch', {}, { field: 'file', issue: 'type_mismatch' });
