import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { FsIndexEntriesTable } from '../../db/schema';
import type { FolderListing } from '../../storage/driver';
import { innerOfKey, listMount, mountTarget, withInner, type MountTarget } from '../fs/resolve';
import { pathOfSegments } from '../fs/paths';
import { completeIfDrained, failBuild, queueFolders, ROOT_FOLDER } from './index-records';
import { log } from '../../observability/log';

/** A claimed row of the queue: one folder of one mount to read into the index. */
export interface PendingFolder {
  mount_id: string;
  folder: string;
  deep: number;
  generation: number;
}

type Entry = Insertable<FsIndexEntriesTable>;

/** Rows per INSERT: 8 values each, far below both databases' parameter limits. */
const INSERT_BATCH = 500;

/** `substr(column, 1, n) = prefix`: "starts with", without LIKE's wildcards or SQLite's ASCII case folding. */
export const startsWith = (column: string, prefix: string) => sql<boolean>`substr(${sql.ref(column)}, 1, ${Array.from(prefix).length}) = ${prefix}`;

const childPath = (folder: string, name: string) => (folder === ROOT_FOLDER ? name : `${folder}/${name}`);

/**
 * Reads one queued folder through the mount's driver and, in one transaction, makes the index say what it holds:
 * its children upserted, those that vanished deleted with everything below them, child folders queued (all of them
 * when `deep`, else only those new to the index), and the queue's row deleted unless it was queued again meanwhile.
 */
export async function readFolder(deps: AppDeps, pending: PendingFolder): Promise<void> {
  const mount = await deps.db.selectFrom('mounts').selectAll().where('id', '=', pending.mount_id).executeTakeFirst();
  if (!mount) return; // the mount was deleted: its rows went with it
  const root = await mountTarget(deps, mount, pathOfSegments(mount.mount_path.split('/').filter(Boolean)));
  let target: MountTarget;
  try {
    target = withInner(root, pending.folder === ROOT_FOLDER ? [] : pending.folder.split('/'));
  } catch {
    // A name no storage key can hold (or a reserved area): nothing there to index.
    await dropPending(deps.db, pending);
    return;
  }
  const listing = await listOrNothing(deps, target, pending);
  if (!listing) return;
  const children: Entry[] = [
    ...listing.folders.map((key) => entryOf(mount.id, pending.folder, innerOfKey(target, key), true, 0, null)),
    ...listing.objects.map((object) => entryOf(mount.id, pending.folder, innerOfKey(target, object.key), false, object.size, object.modified)),
  ];
  const at = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    await applyListing(trx, pending, children, at);
  });
  await completeIfDrained(deps.db, mount.id, at);
}

/**
 * The folder's listing. A folder that went away has nothing in it; a root the storage refuses fails the build;
 * anything else is thrown, and the row is tried again once its claim lapses.
 */
async function listOrNothing(deps: AppDeps, target: MountTarget, pending: PendingFolder): Promise<FolderListing | undefined> {
  try {
    return await listMount(target);
  } catch (error) {
    if (pending.folder === ROOT_FOLDER) {
      log.error(`Indexing mount ${pending.mount_id} failed: its root cannot be listed (${error instanceof Error ? error.name : 'error'})`);
      await failBuild(deps.db, pending.mount_id, 'fs_index_unreadable', deps.now());
      return undefined;
    }
    if (await target.driver.folderExists(target.key).catch(() => true)) throw error;
    return { folders: [], objects: [] };
  }
}

const dropPending = (db: DB, pending: PendingFolder) =>
  db
    .deleteFrom('fs_index_pending')
    .where('mount_id', '=', pending.mount_id)
    .where('folder', '=', pending.folder)
    .where('generation', '=', pending.generation)
    .execute();

function entryOf(mountId: string, folder: string, inner: string[], isDir: boolean, size: number, modified: Date | null): Entry {
  const name = inner.at(-1) ?? '';
  return { mount_id: mountId, path: childPath(folder, name), parent: folder, name, is_dir: isDir ? 1 : 0, size, modified: modified?.toISOString() ?? null };
}

async function applyListing(trx: DB, pending: PendingFolder, children: Entry[], at: Date) {
  const known = await trx
    .selectFrom('fs_index_entries')
    .select(['path', 'is_dir', 'size', 'modified'])
    .where('mount_id', '=', pending.mount_id)
    .where('parent', '=', pending.folder)
    .execute();
  const knownByPath = new Map(known.map((row) => [row.path, row]));
  const listed = new Set(children.map((child) => child.path));

  for (const gone of known.filter((row) => !listed.has(row.path))) await removeEntry(trx, pending.mount_id, gone.path);

  const changed = children.filter((child) => {
    const before = knownByPath.get(child.path);
    return !before || before.is_dir !== child.is_dir || Number(before.size) !== child.size || before.modified !== child.modified;
  });
  // A file that became a folder (or the other way) loses what the index held below the old one.
  for (const child of changed) if (knownByPath.get(child.path)?.is_dir === 1 && child.is_dir === 0) await removeBelow(trx, pending.mount_id, child.path);
  for (let start = 0; start < changed.length; start += INSERT_BATCH) {
    await trx
      .insertInto('fs_index_entries')
      .values(changed.slice(start, start + INSERT_BATCH))
      .onConflict((conflict) =>
        conflict.columns(['mount_id', 'path']).doUpdateSet((eb) => ({
          is_dir: eb.ref('excluded.is_dir'),
          size: eb.ref('excluded.size'),
          modified: eb.ref('excluded.modified'),
        })),
      )
      .execute();
  }

  const folders = children.filter((child) => child.is_dir === 1 && (pending.deep === 1 || knownByPath.get(child.path)?.is_dir !== 1));
  await queueFolders(trx, pending.mount_id, folders.map((child) => child.path), pending.deep === 1, at);
  await dropPending(trx, pending);
}

async function removeEntry(trx: DB, mountId: string, path: string) {
  await trx.deleteFrom('fs_index_entries').where('mount_id', '=', mountId).where('path', '=', path).execute();
  await removeBelow(trx, mountId, path);
}

/** Everything the index holds below a folder, and the folders of it still queued. */
async function removeBelow(trx: DB, mountId: string, path: string) {
  const prefix = `${path}/`;
  await trx.deleteFrom('fs_index_entries').where('mount_id', '=', mountId).where(startsWith('path', prefix)).execute();
  await trx.deleteFrom('fs_index_pending').where('mount_id', '=', mountId).where(startsWith('folder', prefix)).execute();
}
