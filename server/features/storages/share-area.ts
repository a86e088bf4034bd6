import type { AppDeps } from '../../context';
import { bareEtag, type ObjectHead, type StorageDriver } from '../../storage/driver';
import { isShareAreaKey, SHARE_AREA, shareAreaKeyOf } from '../../storage/keys';
import { describeError } from '../../storage/reason';
import { driverFor } from '../../storage/registry';
import { findStorageConfig } from './configs';
import type { FileRow } from '../file-shares/records';

/** Rows looked at per query: the move goes on in steps, each one a short read. */
const BATCH = 100;

export interface ShareMoveLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface ShareMoveResult {
  moved: number;
  failed: number;
}

/**
 * Moves the objects of file shares stored before the share area existed (`<config folder>/…`, where a mount of the
 * storage reached them) into it. Safe to stop at any point and to run again, also on two instances at once:
 * - LOCAL: a rename, then the record; a record left pointing at a renamed object is finished on the next run.
 * - S3: a copy, checked against the original's size and ETag; the record then points at the copy and remembers
 *   the original (`moved_from`) until it is deleted, so the share is readable throughout and nothing stays behind.
 * Pending uploads are left until they are committed (a later run takes them).
 */
export async function moveSharesIntoArea(deps: AppDeps, log: ShareMoveLog = console): Promise<ShareMoveResult> {
  const result: ShareMoveResult = { moved: 0, failed: 0 };
  await finishLeftovers(deps, log, result);
  const failedIds = new Set<string>();
  for (;;) {
    let query = deps.db
      .selectFrom('files')
      .selectAll()
      .where('status', '=', 'committed')
      .where('storage_path', 'not like', `${SHARE_AREA}/%`)
      .orderBy('id')
      .limit(BATCH);
    if (failedIds.size > 0) query = query.where('id', 'not in', [...failedIds]);
    const rows = await query.execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      try {
        await moveOne(deps, row);
        result.moved++;
      } catch (error) {
        failedIds.add(row.id);
        result.failed++;
        log.warn(`Share ${row.slug}: its object could not be moved into the share area (${describeError(error)}); it is tried again later.`);
      }
    }
  }
  if (result.moved > 0 || result.failed > 0) {
    log.info(`Share area: ${result.moved} file share(s) moved out of mount reach${result.failed ? `, ${result.failed} to try again` : ''}.`);
  }
  return result;
}

async function driverOf(deps: AppDeps, row: Pick<FileRow, 'storage_config_id'>): Promise<StorageDriver> {
  const config = await findStorageConfig(deps.db, row.storage_config_id);
  if (!config) throw new Error('its storage config is gone');
  return driverFor(deps, config);
}

async function moveOne(deps: AppDeps, row: FileRow): Promise<void> {
  const driver = await driverOf(deps, row);
  const from = row.storage_path;
  const to = shareAreaKeyOf(from);
  const original = await driver.head(from);
  if (!original) {
    // Renamed (or copied) by a run that stopped before the record changed: the record is all that is left to do.
    const moved = await driver.head(to);
    if (!moved) throw new Error('its object is missing');
    await repoint(deps, row, driver, { to, etag: moved.etag, movedFrom: null });
    return;
  }
  if (driver.type === 'LOCAL') {
    await driver.move(from, to);
    await repoint(deps, row, driver, { to, etag: original.etag, movedFrom: null });
    return;
  }
  await driver.copy(from, to);
  const copy = await driver.head(to);
  assertSameObject(original, copy);
  if (!(await repoint(deps, row, driver, { to, etag: copy.etag, movedFrom: from }))) return; // another instance moved it

  await driver.delete(from);
  await deps.db.updateTable('files').set({ moved_from: null }).where('id', '=', row.id).execute();
}

/** A copy is the original when it has its size and, unless S3 made a new one for a multipart object, its ETag. */
function assertSameObject(original: ObjectHead, copy: ObjectHead | undefined): asserts copy is ObjectHead {
  if (!copy || copy.size !== original.size) throw new Error('its copy has another size');
  const multipart = bareEtag(original.etag).includes('-');
  if (!multipart && bareEtag(copy.etag) !== bareEtag(original.etag)) throw new Error('its copy has another ETag');
}

/** Points the record at the object's new key; false when the record no longer pointed at the old one. */
async function repoint(
  deps: AppDeps,
  row: FileRow,
  driver: StorageDriver,
  moved: { to: string; etag: string; movedFrom: string | null },
): Promise<boolean> {
  const result = await deps.db
    .updateTable('files')
    .set({ storage_path: moved.to, s3_url: driver.objectUrl(moved.to), etag: moved.etag || row.etag, moved_from: moved.movedFrom })
    .where('id', '=', row.id)
    .where('storage_path', '=', row.storage_path)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Originals whose copy the record already points at, left by a run that stopped before deleting them. */
async function finishLeftovers(deps: AppDeps, log: ShareMoveLog, result: ShareMoveResult): Promise<void> {
  const rows = await deps.db.selectFrom('files').selectAll().where('moved_from', 'is not', null).execute();
  for (const row of rows) {
    const original = row.moved_from;
    if (original === null || isShareAreaKey(original)) continue;
    try {
      await (await driverOf(deps, row)).delete(original);
      await deps.db.updateTable('files').set({ moved_from: null }).where('id', '=', row.id).execute();
    } catch (error) {
      result.failed++;
      log.warn(`Share ${row.slug}: the object it was moved from could not be deleted (${describeError(error)}); it is tried again later.`);
    }
  }
}
