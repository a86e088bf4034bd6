import type * as v from 'valibot';
import type { FileShare, updateFileRequestSchema } from '../../../contract/files';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { newestPage } from '../../db/dialect';
import { ApiError } from '../../errors';
import { reasonOf } from '../../storage/reason';
import { driverFor } from '../../storage/registry';
import { fileNotFound, toFileShare, type FileRow } from './records';
import { shareEditColumns } from '../shares/share-edits';
import { slugConflictsAs409 } from '../shares/slugs';
import { findStorageConfig } from '../storages/configs';
import { viewCountsOf } from '../shares/view-counts';

export type UpdateFileInput = v.InferOutput<typeof updateFileRequestSchema>;

/** Every file (admin routes) or one creator's (`admin`, `apikey:<id>`). */
export type FileScope = { all: true } | { all: false; createdBy: string };

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

/** The file records in scope, every column. */
export function scopedFiles(db: DB, scope: FileScope) {
  let query = db.selectFrom('files').selectAll();
  if (!scope.all) query = query.where('created_by', '=', scope.createdBy);
  return query;
}

/** Management delete: committed files, and the caller's own pending upload after a failed PUT. */
export async function deleteFile(deps: AppDeps, scope: FileScope, id: string): Promise<void> {
  const row = await scopedFiles(deps.db, scope).where('id', '=', id).executeTakeFirst();
  if (!row) throw fileNotFound();
  await removeFile(deps, row);
}

/** Each file on its own: one that fails (and keeps its record) does not stop the others. */
export async function removeFiles(deps: AppDeps, rows: FileRow[]): Promise<{ removed: number; failed: number }> {
  let removed = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      await removeFile(deps, row);
      removed++;
    } catch {
      failed++;
    }
  }
  return { removed, failed };
}

export async function deleteFiles(deps: AppDeps, scope: FileScope, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = await scopedFiles(deps.db, scope).where('id', 'in', unique).execute();
  const { removed, failed } = await removeFiles(deps, rows);
  return { deleted: removed, missing: unique.length - rows.length, failed };
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
  const rows = await newestPage(scopedFiles(deps.db, scope).where('status', '=', 'committed'), deps.db, limit, offset).execute();
  const now = deps.now();
  return { items: rows.map((row) => toFileShare(row, now)), pagination: { total, limit, offset, hasMore: offset + rows.length < total } };
}

async function committedRow(deps: AppDeps, scope: FileScope, id: string): Promise<FileRow> {
  const row = await scopedFiles(deps.db, scope).where('id', '=', id).where('status', '=', 'committed').executeTakeFirst();
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
  const changes = await shareEditColumns(deps.db, 'files', id, input, deps.now());
  await slugConflictsAs409('files', () => deps.db.updateTable('files').set(changes).where('id', '=', id).execute());
  return getFile(deps, scope, id);
}
