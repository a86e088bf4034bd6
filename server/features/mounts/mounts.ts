import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type * as v from 'valibot';
import type { createMountRequestSchema, Mount, updateMountRequestSchema } from '../../../contract/mounts';
import { creatorOf, type AppDeps, type Principal } from '../../context';
import type { MountsTable } from '../../db/schema';
import { ApiError, badInput } from '../../errors';
import { isWithin } from '../../../contract/fs-paths';
import { clearMountCache } from '../fs/shared-directory-cache';
import { findStorageConfig } from '../storages/configs';
import { queueBuild } from '../search/index-records';
import { indexerOf } from '../search/indexer';

export type MountRow = Selectable<MountsTable>;
export type CreateMountInput = v.InferOutput<typeof createMountRequestSchema>;
export type UpdateMountInput = v.InferOutput<typeof updateMountRequestSchema>;

export const mountNotFound = () => new ApiError(404, 'mount_not_found');

/** Lists order mounts by `sort_order`, then name. */
const ordered = (deps: AppDeps) => deps.db.selectFrom('mounts').selectAll().orderBy('sort_order').orderBy('name').orderBy('id');

/** A key sees the mounts inside its base path, and those its base path lies in; an admin sees every mount. */
export function canSeeMount(principal: Principal, mount: Pick<MountRow, 'mount_path'>): boolean {
  if (principal.kind !== 'apiKey') return principal.kind === 'admin';
  return isWithin(mount.mount_path, principal.basicPath) || isWithin(principal.basicPath, mount.mount_path);
}

/** The active mounts a caller may browse, in list order. */
export async function visibleMounts(deps: AppDeps, principal: Principal): Promise<MountRow[]> {
  const rows = await ordered(deps).where('is_active', '=', 1).execute();
  return rows.filter((row) => canSeeMount(principal, row));
}

async function present(deps: AppDeps, rows: MountRow[]): Promise<Mount[]> {
  const configs = await deps.db.selectFrom('storage_configs').select(['id', 'name']).execute();
  const names = new Map(configs.map((config) => [config.id, config.name]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    storage_type: row.storage_type,
    storage_config_id: row.storage_config_id,
    storage_config_name: names.get(row.storage_config_id) ?? null,
    mount_path: row.mount_path,
    remark: row.remark,
    is_active: row.is_active === 1,
    sort_order: row.sort_order,
    cache_ttl: row.cache_ttl,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

/** Admins: every mount. Keys: the active mounts their base path reaches. */
export async function listMounts(deps: AppDeps, principal: Principal): Promise<Mount[]> {
  const rows = principal.kind === 'admin' ? await ordered(deps).execute() : await visibleMounts(deps, principal);
  return present(deps, rows);
}

export async function getMount(deps: AppDeps, principal: Principal, id: string): Promise<Mount> {
  const row = await deps.db.selectFrom('mounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || (principal.kind !== 'admin' && (row.is_active !== 1 || !canSeeMount(principal, row)))) throw mountNotFound();
  const [mount] = await present(deps, [row]);
  return mount as Mount;
}

/** The config must exist and be of the mount's storage type. */
async function assertConfigFits(deps: AppDeps, configId: string, storageType: MountRow['storage_type']) {
  const config = await findStorageConfig(deps.db, configId);
  if (!config) throw badInput('storage_config_id', 'not_found');
  if (config.storage_type !== storageType) throw badInput('storage_type', 'does_not_match_storage_config');
}

async function assertPathFree(deps: AppDeps, mountPath: string, exceptId?: string) {
  let query = deps.db.selectFrom('mounts').select('id').where((eb) => eb(eb.fn('lower', ['mount_path']), '=', mountPath.toLowerCase()));
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new ApiError(409, 'mount_path_taken', { path: mountPath }, { field: 'mount_path' });
}

export async function createMount(deps: AppDeps, principal: Principal, input: CreateMountInput): Promise<Mount> {
  await assertConfigFits(deps, input.storage_config_id, input.storage_type);
  await assertPathFree(deps, input.mount_path);
  const at = deps.now().toISOString();
  const id = randomUUID();
  await deps.db
    .insertInto('mounts')
    .values({
      id,
      name: input.name,
      mount_path: input.mount_path,
      storage_type: input.storage_type,
      storage_config_id: input.storage_config_id,
      remark: input.remark || null,
      sort_order: input.sort_order,
      cache_ttl: input.cache_ttl,
      is_active: input.is_active ? 1 : 0,
      created_by: creatorOf(principal),
      created_at: at,
      updated_at: at,
    })
    .execute();
  await indexMount(deps, id);
  return getMount(deps, principal, id);
}

export async function updateMount(deps: AppDeps, principal: Principal, id: string, input: UpdateMountInput): Promise<Mount> {
  const row = await deps.db.selectFrom('mounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw mountNotFound();
  const storageType = input.storage_type ?? row.storage_type;
  const configId = input.storage_config_id ?? row.storage_config_id;
  if (input.storage_type !== undefined || input.storage_config_id !== undefined) await assertConfigFits(deps, configId, storageType);
  if (input.mount_path !== undefined) await assertPathFree(deps, input.mount_path, id);
  await deps.db
    .updateTable('mounts')
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.mount_path !== undefined && { mount_path: input.mount_path }),
      storage_type: storageType,
      storage_config_id: configId,
      ...(input.remark !== undefined && { remark: input.remark || null }),
      ...(input.sort_order !== undefined && { sort_order: input.sort_order }),
      ...(input.cache_ttl !== undefined && { cache_ttl: input.cache_ttl }),
      ...(input.is_active !== undefined && { is_active: input.is_active ? 1 : 0 }),
      updated_at: deps.now().toISOString(),
    })
    .where('id', '=', id)
    .execute();
  await clearMountCache(deps, id);
  // Another storage behind the mount: its index is walked again (what the old one held goes as it is not found).
  if (configId !== row.storage_config_id) await indexMount(deps, id);
  return getMount(deps, principal, id);
}

/** Queues a walk of the mount into its search index and starts reading it. */
async function indexMount(deps: AppDeps, id: string) {
  await queueBuild(deps, id);
  indexerOf(deps).kick();
}

/** Its search index goes with it (the index tables' rows cascade). */
export async function deleteMount(deps: AppDeps, id: string): Promise<void> {
  const result = await deps.db.deleteFrom('mounts').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw mountNotFound();
  await clearMountCache(deps, id);
}
