import { randomUUID } from 'node:crypto';
import { emitEvent } from '../events/bus';
import { fileObject } from '../events/objects';
import type { Selectable } from 'kysely';
import * as v from 'valibot';
import { shareOptionsSchema, type FileShare } from '../../../contract/files';
import type { AppDeps, Principal } from '../../context';
import { creatorOf } from '../../context';
import type { DB } from '../../db/database';
import type { FilesTable } from '../../db/schema';
import { badInput, notFound } from '../../errors';
import { hashPassword } from '../../security/passwords';
import { driverFor, type StorageConfigRow } from '../../storage/registry';
import { shareStateOf } from '../shares/share-state';
import { writeWithSlug } from '../shares/slugs';
import { touchStorageConfig } from '../storages/configs';
import { assertFits, uploadLimits } from '../storages/upload-limits';

export type FileRow = Selectable<FilesTable>;
export type ShareOptions = v.InferOutput<typeof shareOptionsSchema>;

export const fileNotFound = () => notFound('file_not_found');

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

// ---------------------------------------------------------------------------------------------- share options

/** The columns share options set; `expires_in` hours from now, 0 = never. */
export async function shareColumns(options: ShareOptions, now: Date) {
  return {
    remark: options.remark ? options.remark : null,
    password_hash: options.password !== undefined ? await hashPassword(options.password) : null,
    expires_at: options.expires_in > 0 ? new Date(now.getTime() + options.expires_in * 3_600_000).toISOString() : null,
    max_views: options.max_views,
  };
}

/** Share options from the text fields of a form (empty = absent; the schema reads numbers); 400 naming the field. */
export function shareOptionsFromForm(fields: Record<string, string>): ShareOptions {
  const text = (name: string) => (fields[name] === undefined || fields[name] === '' ? undefined : fields[name]);
  const result = v.safeParse(shareOptionsSchema, {
    slug: text('slug'),
    remark: text('remark'),
    password: text('password'),
    expires_in: text('expires_in'),
    max_views: text('max_views'),
  });
  if (!result.success) {
    const issue = result.issues[0];
    throw badInput((issue && v.getDotPath(issue)) || 'body', issue?.message ?? 'invalid');
  }
  return result.output;
}

// ---------------------------------------------------------------------------------------------- create

/** What a new record says of its file; the rest (id, slug, counters, creator, times) is filled in on insert. */
type NewFileColumns = Omit<FileRow, 'id' | 'slug' | 'views' | 'moved_from' | 'created_by' | 'created_at' | 'updated_at'>;

/** Inserts a file record holding `slug` (a random one when none is asked for). */
export async function insertFile(
  db: DB,
  principal: Principal,
  now: Date,
  slug: string | undefined,
  columns: NewFileColumns,
): Promise<FileRow> {
  const stamp = now.toISOString();
  return writeWithSlug(db, 'files', slug, async (freeSlug) => {
    const values: FileRow = {
      id: randomUUID(),
      slug: freeSlug,
      ...columns,
      views: 0,
      moved_from: null,
      created_by: creatorOf(principal),
      created_at: stamp,
      updated_at: stamp,
    };
    await db.insertInto('files').values(values).execute();
    return values;
  });
}

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
 * known, then inserts; if anything refuses, the object is removed again. `beforeInsert`, when given, runs in one
 * transaction with the insert (a replaced share leaves in the same commit as its successor arrives).
 */
export async function recordStoredFile(
  deps: AppDeps,
  principal: Principal,
  stored: StoredObject,
  options: ShareOptions,
  beforeInsert?: (db: DB) => Promise<void>,
): Promise<FileShare> {
  const driver = driverFor(deps, stored.config);
  try {
    const now = deps.now();
    const limits = await uploadLimits(deps, stored.config);
    assertFits(stored.size, limits);
    const columns = {
      filename: stored.filename,
      mimetype: stored.mimetype,
      size: stored.size,
      storage_config_id: stored.config.id,
      storage_path: stored.key,
      s3_url: driver.objectUrl(stored.key),
      etag: stored.etag,
      ...(await shareColumns(options, now)),
      status: 'committed' as const,
      upload_id: null,
      part_size: null,
      source_url: null,
    };
    const insert = async (db: DB) => {
      await beforeInsert?.(db);
      return insertFile(db, principal, now, options.slug, columns);
    };
    const row = beforeInsert ? await deps.db.transaction().execute(insert) : await insert(deps.db);
    await touchStorageConfig(deps.db, stored.config.id, now);
    emitEvent(deps, 'file.created', fileObject(row));
    return toFileShare(row, now);
  } catch (error) {
    await driver.delete(stored.key).catch(() => undefined);
    throw error;
  }
}
