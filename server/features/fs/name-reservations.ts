import type { AppDeps } from '../../context';

/**
 * Rows of `fs_name_reservations`: a name (storage config, object key) held by a write in progress until its
 * expiry. The unique key makes a take atomic across processes and instances; server/features/fs/free-names.ts decides
 * which names to take.
 */
export interface HeldName {
  configId: string;
  key: string;
}

const expiry = (deps: AppDeps, holdMs: number) => new Date(deps.now().getTime() + holdMs).toISOString();

/** Takes a name when no live reservation holds it; true when taken. A holder whose expiry passed loses it. */
export async function reserveName(deps: AppDeps, name: HeldName, outcome: 'created' | 'renamed', holdMs: number): Promise<boolean> {
  const now = deps.now().toISOString();
  await deps.db
    .deleteFrom('fs_name_reservations')
    .where('storage_config_id', '=', name.configId)
    .where('storage_key', '=', name.key)
    .where('expires_at', '<=', now)
    .execute();
  const taken = await deps.db
    .insertInto('fs_name_reservations')
    .values({ storage_config_id: name.configId, storage_key: name.key, outcome, expires_at: expiry(deps, holdMs), created_at: now })
    .onConflict((conflict) => conflict.columns(['storage_config_id', 'storage_key']).doNothing())
    .returning('storage_key')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Gives a name back; answers what its write was planned as (`created`/`renamed`), or undefined when none held it. */
export async function releaseName(deps: AppDeps, name: HeldName): Promise<'created' | 'renamed' | undefined> {
  const released = await deps.db
    .deleteFrom('fs_name_reservations')
    .where('storage_config_id', '=', name.configId)
    .where('storage_key', '=', name.key)
    .returning('outcome')
    .executeTakeFirst();
  return released?.outcome;
}

/** A write still in progress keeps its name for another `holdMs`. */
export async function renewName(deps: AppDeps, name: HeldName, holdMs: number): Promise<void> {
  await deps.db
    .updateTable('fs_name_reservations')
    .set({ expires_at: expiry(deps, holdMs) })
    .where('storage_config_id', '=', name.configId)
    .where('storage_key', '=', name.key)
    .execute();
}

/** Drops the reservations of writes that never finished (their expiry passed); answers how many. */
export async function sweepExpiredNames(deps: AppDeps): Promise<number> {
  const swept = await deps.db.deleteFrom('fs_name_reservations').where('expires_at', '<=', deps.now().toISOString()).executeTakeFirst();
  return Number(swept.numDeletedRows);
}

/**
 * reserveName for many names of one outcome, a few statements per slice of names instead of two per name; answers
 * those taken (a name listed twice is taken once, by its first).
 */
export async function reserveNames(deps: AppDeps, names: readonly HeldName[], outcome: 'created' | 'renamed', holdMs: number): Promise<Set<HeldName>> {
  const now = deps.now().toISOString();
  const idOf = (name: HeldName) => `${name.configId}\n${name.key}`;
  const taken = new Set<HeldName>();
  // In slices: SQLite takes at most 32,766 parameters in one statement.
  for (let start = 0; start < names.length; start += 500) {
    const slice = names.slice(start, start + 500);
    for (const configId of new Set(slice.map((name) => name.configId))) {
      await deps.db
        .deleteFrom('fs_name_reservations')
        .where('storage_config_id', '=', configId)
        .where('storage_key', 'in', slice.filter((name) => name.configId === configId).map((name) => name.key))
        .where('expires_at', '<=', now)
        .execute();
    }
    const rows = await deps.db
      .insertInto('fs_name_reservations')
      .values(slice.map((name) => ({ storage_config_id: name.configId, storage_key: name.key, outcome, expires_at: expiry(deps, holdMs), created_at: now })))
      .onConflict((conflict) => conflict.columns(['storage_config_id', 'storage_key']).doNothing())
      .returning(['storage_config_id', 'storage_key'])
      .execute();
    const got = new Set(rows.map((row) => idOf({ configId: row.storage_config_id, key: row.storage_key })));
    for (const name of slice) {
      if (got.delete(idOf(name))) taken.add(name);
    }
  }
  return taken;
}
