import { sql } from 'kysely';
import { INDEX_RESCAN_MINUTES_DEFAULT, type MountIndex } from '../../../contract/search';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { translate, type Lang, type MessageKey } from '../../i18n/messages';
import type { MountRow } from '../mounts/mounts';

/**
 * The records of the mounts' indexes: each mount's state (`fs_index_mounts`) and the durable queue of folders to
 * read (`fs_index_pending`). A build or rescan queues the mount's root `deep`; a write through Clipstash queues the
 * folders it touched, shallow. Reading the queue is indexer.ts's work.
 */

export const ROOT_FOLDER = '';

/**
 * Queues folders of a mount to be read. A folder already queued keeps the deeper of the two requests and is released
 * from a reader that holds it (its generation bumped), so that a write made while it was being read is seen.
 */
export async function queueFolders(db: DB, mountId: string, folders: Iterable<string>, deep: boolean, at: Date): Promise<void> {
  const rows = [...new Set(folders)].map((folder) => ({ mount_id: mountId, folder, deep: deep ? 1 : 0, queued_at: at.toISOString() }));
  for (let start = 0; start < rows.length; start += 200) {
    await db
      .insertInto('fs_index_pending')
      .values(rows.slice(start, start + 200))
      .onConflict((conflict) =>
        conflict.columns(['mount_id', 'folder']).doUpdateSet((eb) => ({
          deep: sql<number>`case when ${eb.ref('excluded.deep')} > ${eb.ref('fs_index_pending.deep')} then ${eb.ref('excluded.deep')} else ${eb.ref('fs_index_pending.deep')} end`,
          generation: eb('fs_index_pending.generation', '+', 1),
          holder: null,
          held_until: null,
        })),
      )
      .execute();
  }
}

/** Lets go of every claim in the queue: their folders are read by whichever reader asks next. */
export async function releaseClaims(db: DB): Promise<void> {
  await db.updateTable('fs_index_pending').set({ holder: null, held_until: null }).where('holder', 'is not', null).execute();
}

/** A walk of the whole mount: its index is `building` until the queue drains. */
export async function queueBuild(deps: AppDeps, mountId: string): Promise<void> {
  const at = deps.now();
  await deps.db
    .insertInto('fs_index_mounts')
    .values({ mount_id: mountId, state: 'building', error: null })
    .onConflict((conflict) => conflict.column('mount_id').doUpdateSet({ state: 'building', error: null }))
    .execute();
  await queueFolders(deps.db, mountId, [ROOT_FOLDER], true, at);
}

/** Mounts that have no index yet (new ones, or every mount at the first start after migration 016) get a build. */
export async function queueMissingBuilds(deps: AppDeps): Promise<string[]> {
  const missing = await deps.db
    .selectFrom('mounts')
    .select('id')
    .where('id', 'not in', deps.db.selectFrom('fs_index_mounts').select('mount_id'))
    .execute();
  for (const { id } of missing) await queueBuild(deps, id);
  return missing.map(({ id }) => id);
}

/** Mounts whose rescan is due: their root is queued deep again (the index stays searchable meanwhile). */
export async function queueDueRescans(deps: AppDeps): Promise<string[]> {
  const due = await deps.db
    .selectFrom('fs_index_mounts')
    .select('mount_id')
    .where('next_rescan_at', '<=', deps.now().toISOString())
    .where('state', '!=', 'building')
    .execute();
  for (const { mount_id } of due) await queueBuild(deps, mount_id);
  return due.map(({ mount_id }) => mount_id);
}

const nextRescan = (from: Date, minutes: number) => (minutes > 0 ? new Date(from.getTime() + minutes * 60_000).toISOString() : null);

/** After a mount's queue drained: a building index is complete, and its next rescan is scheduled. */
export async function completeIfDrained(db: DB, mountId: string, at: Date): Promise<void> {
  const left = await db.selectFrom('fs_index_pending').select('folder').where('mount_id', '=', mountId).limit(1).executeTakeFirst();
  if (left) return;
  const row = await db.selectFrom('fs_index_mounts').select('rescan_minutes').where('mount_id', '=', mountId).where('state', '=', 'building').executeTakeFirst();
  if (!row) return;
  await db
    .updateTable('fs_index_mounts')
    .set({ state: 'complete', built_at: at.toISOString(), error: null, next_rescan_at: nextRescan(at, row.rescan_minutes) })
    .where('mount_id', '=', mountId)
    .where('state', '=', 'building')
    .execute();
}

/** A walk that cannot go on (the storage refuses its root): the queue is dropped and the next rescan tries again. */
export async function failBuild(db: DB, mountId: string, error: MessageKey, at: Date): Promise<void> {
  await db.deleteFrom('fs_index_pending').where('mount_id', '=', mountId).execute();
  const row = await db.selectFrom('fs_index_mounts').select('rescan_minutes').where('mount_id', '=', mountId).executeTakeFirst();
  await db
    .updateTable('fs_index_mounts')
    .set({ state: 'failed', error, next_rescan_at: nextRescan(at, row?.rescan_minutes ?? INDEX_RESCAN_MINUTES_DEFAULT) })
    .where('mount_id', '=', mountId)
    .execute();
}

/** Sets how often a mount is rescanned (0: never); the next rescan counts from the last complete walk. */
export async function setRescanMinutes(deps: AppDeps, mountId: string, minutes: number): Promise<void> {
  const row = await deps.db.selectFrom('fs_index_mounts').select('built_at').where('mount_id', '=', mountId).executeTakeFirst();
  if (!row) {
    await queueBuild(deps, mountId);
  }
  const from = row?.built_at ? new Date(row.built_at) : deps.now();
  await deps.db
    .updateTable('fs_index_mounts')
    .set({ rescan_minutes: minutes, next_rescan_at: nextRescan(from, minutes) })
    .where('mount_id', '=', mountId)
    .execute();
}

/** Whether a mount has an index to keep fresh (writes to mounts without one queue nothing). */
export async function hasIndex(db: DB, mountId: string): Promise<boolean> {
  return (await db.selectFrom('fs_index_mounts').select('mount_id').where('mount_id', '=', mountId).executeTakeFirst()) !== undefined;
}

/** The index of each mount, as the admin and searchers see it, in the mounts' order. */
export async function mountIndexes(db: DB, mounts: Pick<MountRow, 'id' | 'mount_path'>[], lang: Lang): Promise<MountIndex[]> {
  if (mounts.length === 0) return [];
  const ids = mounts.map((mount) => mount.id);
  const [states, entries, pending] = await Promise.all([
    db.selectFrom('fs_index_mounts').selectAll().where('mount_id', 'in', ids).execute(),
    db.selectFrom('fs_index_entries').select(['mount_id', (eb) => eb.fn.countAll<number>().as('count')]).where('mount_id', 'in', ids).groupBy('mount_id').execute(),
    db.selectFrom('fs_index_pending').select(['mount_id', (eb) => eb.fn.countAll<number>().as('count')]).where('mount_id', 'in', ids).groupBy('mount_id').execute(),
  ]);
  const stateOf = new Map(states.map((row) => [row.mount_id, row]));
  const countOf = (rows: { mount_id: string; count: number }[]) => new Map(rows.map((row) => [row.mount_id, Number(row.count)]));
  const entryCounts = countOf(entries);
  const pendingCounts = countOf(pending);
  return mounts.map((mount) => {
    const state = stateOf.get(mount.id);
    return {
      mountId: mount.id,
      mountPath: mount.mount_path,
      state: state?.state ?? 'none',
      entries: entryCounts.get(mount.id) ?? 0,
      foldersPending: pendingCounts.get(mount.id) ?? 0,
      builtAt: state?.built_at ?? null,
      error: state?.error ? translate(state.error as MessageKey, lang) : null,
      rescanMinutes: state?.rescan_minutes ?? INDEX_RESCAN_MINUTES_DEFAULT,
      nextRescanAt: state?.next_rescan_at ?? null,
    };
  });
}
