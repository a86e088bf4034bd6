/**
 * CloudPaste's `override` and `original_filename` on `PUT /api/upload-direct/{filename}`: an upload that takes the
 * place of the caller's own share holding the slug asked for, or stored under the same file name. The old share
 * goes in the commit that records the new one, so a visitor finds one or the other, never neither nor a mix; the
 * new bytes never go where the old share's still are.
 */
import { creatorOf, type AppDeps, type Principal } from '../../context';
import type { DB } from '../../db/database';
import { ApiError } from '../../errors';
import { log } from '../../observability/log';
import { shareObjectKey } from '../../storage/keys';
import { driverFor, keyFolderOf, type StorageConfigRow } from '../../storage/registry';
import { DIRECT_WRITE_HOLD_MS } from '../fs/free-names';
import { releaseName, reserveName } from '../fs/name-reservations';
import { removeFile } from './management';
import type { FileRow } from './records';
import { slugTaken } from '../shares/slugs';

export interface TakeoverAsk {
  config: StorageConfigRow;
  /** The client folder (`path`) and the file's name, as the key is built from them. */
  folder: string | undefined;
  filename: string;
  slug: string | undefined;
  override: boolean;
  originalName: boolean;
}

/** What an upload with `override` or `original_filename` does besides an ordinary one. */
export interface Takeover {
  /** Where the bytes are stored: the file's own name when it is free, else a key of their own. */
  storeAt: string;
  /** The key of the file's own name, when asked for. */
  nameKey: string | undefined;
  /** The caller's shares the upload replaces. */
  replaced: FileRow[];
  /** The new share's slug: the one asked for, else that of the share it replaces by name (its link lives on). */
  slug: string | undefined;
  /** Gives the file name back to other uploads. */
  release: () => Promise<void>;
}

const notYours = (field: string) => new ApiError(403, 'share_replace_forbidden', {}, { field });

/**
 * Checks, before any byte, what the upload may take over: with `override`, the caller's committed share holding the
 * slug or the name; another's is a 403, and without `override` either taken is a 409. The name is held (in
 * `fs_name_reservations`) until `release`, so that two uploads of one name never write it at once.
 */
export async function planTakeover(deps: AppDeps, principal: Principal, ask: TakeoverAsk): Promise<Takeover> {
  const creator = creatorOf(principal);
  const replaced = new Map<string, FileRow>();
  const replaceable = (row: FileRow, field: string, taken: () => ApiError) => {
    if (!ask.override || row.status !== 'committed') throw taken();
    if (row.created_by !== creator) throw notYours(field);
    replaced.set(row.id, row);
  };

  if (ask.slug !== undefined) {
    const holder = await deps.db.selectFrom('files').selectAll().where('slug', '=', ask.slug).executeTakeFirst();
    if (holder) replaceable(holder, 'slug', slugTaken);
  }
  if (!ask.originalName) return { storeAt: ordinaryKey(ask), nameKey: undefined, replaced: [...replaced.values()], slug: ask.slug, release: async () => undefined };

  const nameKey = shareObjectKey(keyFolderOf(ask.config), ask.folder, ask.filename, true);
  const held = { configId: ask.config.id, key: nameKey };
  if (!(await reserveName(deps, held, 'created', DIRECT_WRITE_HOLD_MS))) throw new ApiError(409, 'share_name_busy', {}, { field: 'original_filename' });
  const release = () => releaseName(deps, held).then(() => undefined);
  try {
    const holders = await deps.db.selectFrom('files').selectAll().where('storage_config_id', '=', ask.config.id).where('storage_path', '=', nameKey).execute();
    for (const holder of holders) replaceable(holder, 'original_filename', () => new ApiError(409, 'share_name_taken', {}, { field: 'original_filename' }));
    return {
      storeAt: holders.length === 0 ? nameKey : ordinaryKey(ask),
      nameKey,
      replaced: [...replaced.values()],
      slug: ask.slug ?? holders[0]?.slug,
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

const ordinaryKey = (ask: TakeoverAsk) => shareObjectKey(keyFolderOf(ask.config), ask.folder, ask.filename);

/**
 * In the transaction that records the new share: each replaced share frees its slug and becomes a stale pending
 * upload, which no visitor, list or search sees, and which the upload sweeper removes with its object should the
 * removal right after the commit fail.
 */
export async function retireShares(db: DB, rows: FileRow[]): Promise<void> {
  for (const row of rows) {
    await db
      .updateTable('files')
      .set({ status: 'pending', slug: `~${row.id}`, upload_id: null, created_at: new Date(0).toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'committed')
      .execute();
  }
}

/** Removes the retired shares with their objects; true when every one is gone (else the sweeper finishes the job). */
export async function removeRetired(deps: AppDeps, rows: FileRow[]): Promise<boolean> {
  let allGone = true;
  for (const row of rows) {
    try {
      await removeFile(deps, row);
    } catch (error) {
      allGone = false;
      log.warn({ err: error, fileId: row.id }, 'A replaced file share stays for the upload sweeper');
    }
  }
  return allGone;
}

/**
 * Moves a new share's object from the key it was stored at to its own name, once the share it replaced left that
 * name: a copy, the record, then the first object removed. Any step that fails leaves the share where it was, whole.
 */
export async function moveToName(deps: AppDeps, config: StorageConfigRow, shareId: string, from: string, to: string): Promise<string> {
  const driver = driverFor(deps, config);
  try {
    await driver.copy(from, to);
    const moved = await deps.db
      .updateTable('files')
      .set({ storage_path: to, s3_url: driver.objectUrl(to) })
      .where('id', '=', shareId)
      .where('storage_path', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new Error('The share changed while its object was moved');
  } catch (error) {
    log.warn({ err: error, fileId: shareId }, 'A replacing file share keeps its own key');
    await driver.delete(to).catch(() => undefined);
    return from;
  }
  await driver.delete(from).catch((error: unknown) => log.warn({ err: error, fileId: shareId }, 'The first copy of a replacing file share stays in storage'));
  return to;
}
