import { randomUUID } from 'node:crypto';
import type { Insertable, Transaction, Updateable } from 'kysely';
import type * as v from 'valibot';
import {
  BUILTIN_LOCAL_NAME,
  LOCAL_PROVIDER,
  SECRET_MASK,
  type createStorageConfigRequestSchema,
  type StorageConfig,
  type updateStorageConfigRequestSchema,
} from '../../../contract/storage';
import type { AppDeps, Principal } from '../../context';
import type { DB } from '../../db/database';
import { lockTransaction } from '../../db/dialect';
import type { Database, StorageConfigsTable } from '../../db/schema';
import { ApiError } from '../../errors';
import { forgetDriver, isRemoteConfig, type StorageConfigRow } from '../../storage/registry';
import { assertHostAllowed, remoteChangesOf, remoteColumnsOf } from './remote-configs';
import { localStorageAllowed } from './shared-storage';

/** A LOCAL config's columns: the S3 connection fields are empty. */
const LOCAL_COLUMNS = {
  storage_type: 'LOCAL',
  provider_type: LOCAL_PROVIDER,
  endpoint_url: null,
  region: null,
  bucket_name: null,
  access_key_id: null,
  secret_access_key_encrypted: null,
  path_style: 0,
} as const;

export type CreateStorageConfigInput = v.InferOutput<typeof createStorageConfigRequestSchema>;
export type UpdateStorageConfigInput = v.InferOutput<typeof updateStorageConfigRequestSchema>;

/** Who made the embedded default LOCAL config and its `/local` mount. */
export const SYSTEM_CREATOR = 'system';
export const BUILTIN_MOUNT_PATH = '/local';

export const storageConfigNotFound = () => new ApiError(404, 'storage_config_not_found');

/**
 * Every start: the embedded LOCAL config exists (public; the default unless another config already is) and
 * the mount `/local` points at it, so a fresh install uploads with zero setup. Idempotent; never takes the
 * default away from a config the admin chose. Instances starting together on one database take turns.
 */
export async function ensureDefaultStorage(db: DB, now: Date): Promise<StorageConfigRow> {
  return db.transaction().execute(async (trx) => {
    await lockTransaction(trx, 'ensure-default-storage');
    const at = now.toISOString();
    const hasDefault = (await trx.selectFrom('storage_configs').select('id').where('is_default', '=', 1).executeTakeFirst()) !== undefined;
    let local = await trx
      .selectFrom('storage_configs')
      .selectAll()
      .where('created_by', '=', SYSTEM_CREATOR)
      .where('storage_type', '=', 'LOCAL')
      .orderBy('created_at')
      .executeTakeFirst();
    if (!local) {
      const row: Insertable<StorageConfigsTable> = {
        id: randomUUID(),
        name: BUILTIN_LOCAL_NAME,
        ...LOCAL_COLUMNS,
        default_folder: '',
        total_storage_bytes: null,
        is_public: 1,
        is_default: hasDefault ? 0 : 1,
        created_by: SYSTEM_CREATOR,
        created_at: at,
        updated_at: at,
        last_used: null,
      };
      await trx.insertInto('storage_configs').values(row).execute();
      local = await trx.selectFrom('storage_configs').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    } else if (!hasDefault) {
      await trx.updateTable('storage_configs').set({ is_default: 1 }).where('id', '=', local.id).execute();
      local = { ...local, is_default: 1 };
    }
    const mount = await trx.selectFrom('mounts').select('id').where('mount_path', '=', BUILTIN_MOUNT_PATH).executeTakeFirst();
    if (!mount) {
      await trx
        .insertInto('mounts')
        .values({
          id: randomUUID(),
          name: 'Local',
          mount_path: BUILTIN_MOUNT_PATH,
          storage_type: 'LOCAL',
          storage_config_id: local.id,
          remark: null,
          sort_order: 0,
          cache_ttl: 300,
          is_active: 1,
          created_by: SYSTEM_CREATOR,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    return local;
  });
}

export interface Usage {
  bytes: number;
  files: number;
}

/** Bytes and count of committed files per config. */
export async function committedUsage(db: DB): Promise<Map<string, Usage>> {
  const rows = await db
    .selectFrom('files')
    .select((eb) => ['storage_config_id', eb.fn.sum<number>('size').as('bytes'), eb.fn.countAll<number>().as('files')])
    .where('status', '=', 'committed')
    .groupBy('storage_config_id')
    .execute();
  return new Map(rows.map((row) => [row.storage_config_id, { bytes: Number(row.bytes ?? 0), files: Number(row.files) }]));
}

/** Bytes a quota must count: committed files plus uploads in flight (their declared sizes). */
export async function reservedBytes(db: DB, configId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.sum<number>('size').as('bytes'))
    .where('storage_config_id', '=', configId)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

function toStorageConfig(row: StorageConfigRow, usage: Usage | undefined, principal: Principal): StorageConfig {
  const isAdmin = principal.kind === 'admin';
  return {
    id: row.id,
    name: row.name,
    storage_type: row.storage_type,
    provider_type: row.provider_type,
    endpoint_url: row.endpoint_url,
    region: row.region,
    bucket_name: row.bucket_name,
    // Keys choose among public configs; the access key id is the admin's business.
    access_key_id: isAdmin ? row.access_key_id : null,
    secret_access_key: row.secret_access_key_encrypted ? SECRET_MASK : null,
    path_style: row.path_style === 1,
    host: row.host,
    port: row.port,
    username: isAdmin ? row.username : null,
    password: row.password_encrypted ? SECRET_MASK : null,
    private_key: row.private_key_encrypted ? SECRET_MASK : null,
    passphrase: row.passphrase_encrypted ? SECRET_MASK : null,
    host_key_sha256: row.host_key_sha256,
    tls: row.tls,
    passive: row.passive === null ? null : row.passive === 1,
    allow_private_host: row.allow_private_host === 1,
    default_folder: row.default_folder,
    total_storage_bytes: row.total_storage_bytes,
    is_public: row.is_public === 1,
    is_default: row.is_default === 1,
    used_storage_bytes: usage?.bytes ?? 0,
    file_count: usage?.files ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_used: row.last_used,
  };
}

/** Admins see every config; API keys only the public ones. The default first, then oldest first. */
export async function listStorageConfigs(deps: AppDeps, principal: Principal): Promise<StorageConfig[]> {
  let query = deps.db.selectFrom('storage_configs').selectAll().orderBy('is_default', 'desc').orderBy('created_at').orderBy('id');
  if (principal.kind !== 'admin') query = query.where('is_public', '=', 1);
  const [rows, usage] = await Promise.all([query.execute(), committedUsage(deps.db)]);
  return rows.map((row) => toStorageConfig(row, usage.get(row.id), principal));
}

export async function findStorageConfig(db: DB | Transaction<Database>, id: string): Promise<StorageConfigRow | undefined> {
  return db.selectFrom('storage_configs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getStorageConfig(deps: AppDeps, principal: Principal, id: string): Promise<StorageConfig> {
  const row = await findStorageConfig(deps.db, id);
  if (!row || (principal.kind !== 'admin' && row.is_public !== 1)) throw storageConfigNotFound();
  return toStorageConfig(row, (await committedUsage(deps.db)).get(id), principal);
}

async function clearDefault(trx: Transaction<Database>) {
  await trx.updateTable('storage_configs').set({ is_default: 0 }).where('is_default', '=', 1).execute();
}

export async function createStorageConfig(deps: AppDeps, principal: Principal, input: CreateStorageConfigInput): Promise<StorageConfig> {
  // Several instances on one database would not find each other's files; the next start would refuse it anyway.
  if (input.storage_type === 'LOCAL' && !localStorageAllowed(deps.config)) {
    throw new ApiError(400, 'local_storage_not_shared', {}, { field: 'storage_type', issue: 'not_shared' });
  }
  const at = deps.now().toISOString();
  const common = {
    id: randomUUID(),
    name: input.name,
    default_folder: input.default_folder,
    total_storage_bytes: input.total_storage_bytes,
    is_public: input.is_public ? 1 : 0,
    is_default: input.is_default ? 1 : 0,
    created_by: 'admin',
    created_at: at,
    updated_at: at,
    last_used: null,
  };
  const row: Insertable<StorageConfigsTable> =
    input.storage_type === 'WEBDAV' || input.storage_type === 'SFTP' || input.storage_type === 'FTP'
      ? { ...common, ...remoteColumnsOf(deps, input) }
      : input.storage_type === 'S3'
      ? {
          ...common,
          storage_type: 'S3',
          provider_type: input.provider_type,
          endpoint_url: input.endpoint_url.replace(/\/+$/, ''),
          region: input.region || 'us-east-1',
          bucket_name: input.bucket_name,
          access_key_id: input.access_key_id,
          secret_access_key_encrypted: deps.secrets.seal(input.secret_access_key),
          path_style: input.path_style ? 1 : 0,
        }
      : {
          ...common,
          ...LOCAL_COLUMNS,
        };
  await assertHostAllowed(deps, { host: null, endpoint_url: null, allow_private_host: 0, ...row });
  await deps.db.transaction().execute(async (trx) => {
    if (row.is_default) await clearDefault(trx);
    await trx.insertInto('storage_configs').values(row).execute();
  });
  return getStorageConfig(deps, principal, common.id);
}

export async function updateStorageConfig(
  deps: AppDeps,
  principal: Principal,
  id: string,
  input: UpdateStorageConfigInput,
): Promise<StorageConfig> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findStorageConfig(trx, id);
    if (!row) throw storageConfigNotFound();
    if (input.is_default === false && row.is_default === 1) throw new ApiError(409, 'storage_config_unset_default', {}, { field: 'is_default' });

    const changes: Updateable<StorageConfigsTable> = { updated_at: deps.now().toISOString() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.default_folder !== undefined) changes.default_folder = input.default_folder;
    if (input.total_storage_bytes !== undefined) changes.total_storage_bytes = input.total_storage_bytes;
    if (input.is_public !== undefined) changes.is_public = input.is_public ? 1 : 0;
    // The S3 fields mean nothing to a LOCAL config: ignored, so one edit form can send them all.
    if (row.storage_type === 'S3') {
      if (input.provider_type !== undefined) changes.provider_type = input.provider_type;
      if (input.endpoint_url !== undefined) changes.endpoint_url = input.endpoint_url.replace(/\/+$/, '');
      if (input.region !== undefined) changes.region = input.region || 'us-east-1';
      if (input.bucket_name !== undefined) changes.bucket_name = input.bucket_name;
      if (input.access_key_id !== undefined) changes.access_key_id = input.access_key_id;
      if (input.path_style !== undefined) changes.path_style = input.path_style ? 1 : 0;
      // Absent, empty or the mask shown to the form: keep the stored secret.
      const secret = input.secret_access_key;
      if (secret !== undefined && secret !== '' && secret !== SECRET_MASK) {
        changes.secret_access_key_encrypted = deps.secrets.seal(secret);
      }
    }
    if (isRemoteConfig(row)) {
      Object.assign(changes, remoteChangesOf(deps, row, input));
      await assertHostAllowed(deps, { ...row, ...changes } as StorageConfigRow);
    }
    if (input.is_default === true && row.is_default !== 1) {
      await clearDefault(trx);
      changes.is_default = 1;
    }
    await trx.updateTable('storage_configs').set(changes).where('id', '=', id).execute();
  });
  return getStorageConfig(deps, principal, id);
}

export async function setDefaultStorageConfig(deps: AppDeps, principal: Principal, id: string): Promise<StorageConfig> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findStorageConfig(trx, id);
    if (!row) throw storageConfigNotFound();
    if (row.is_default === 1) return;
    await clearDefault(trx);
    await trx.updateTable('storage_configs').set({ is_default: 1, updated_at: deps.now().toISOString() }).where('id', '=', id).execute();
  });
  return getStorageConfig(deps, principal, id);
}

/**
 * Refused (409) while the config holds files (pending uploads too), backs a mount, is the default (there must
 * always be one), or is the built-in LOCAL storage (it would come back on the next start).
 */
export async function deleteStorageConfig(deps: AppDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await findStorageConfig(trx, id);
    if (!row) throw storageConfigNotFound();
    if (row.created_by === SYSTEM_CREATOR) throw new ApiError(409, 'storage_config_builtin');
    if (row.is_default === 1) throw new ApiError(409, 'storage_config_is_default');
    const files = await trx
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('storage_config_id', '=', id)
      .executeTakeFirstOrThrow();
    const receipts = await trx
      .selectFrom('expense_receipts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('storage_config_id', '=', id)
      .executeTakeFirstOrThrow();
    const held = Number(files.count) + Number(receipts.count);
    if (held > 0) throw new ApiError(409, 'storage_config_in_use', { count: held }, { count: held });
    const mounts = await trx.selectFrom('mounts').select('mount_path').where('storage_config_id', '=', id).orderBy('mount_path').execute();
    if (mounts.length > 0) {
      const paths = mounts.map((mount) => mount.mount_path);
      throw new ApiError(409, 'storage_config_mounted', { count: paths.length, mounts: paths.join(', ') }, { count: paths.length, mounts: paths });
    }
    await trx.deleteFrom('storage_configs').where('id', '=', id).execute();
  });
  forgetDriver(deps, id);
}

/**
 * The config an upload goes to: the requested one, or the default. API keys may use public configs only
 * (403, "no permission to use this storage configuration", as the frontend words it).
 */
export async function resolveUploadConfig(deps: AppDeps, principal: Principal, requestedId: string | undefined): Promise<StorageConfigRow> {
  let row: StorageConfigRow | undefined;
  if (requestedId) {
    row = await findStorageConfig(deps.db, requestedId);
    if (!row) throw new ApiError(404, 'storage_config_not_found', {}, { field: 's3_config_id' });
  } else {
    row =
      (await deps.db.selectFrom('storage_configs').selectAll().where('is_default', '=', 1).executeTakeFirst()) ??
      (await ensureDefaultStorage(deps.db, deps.now()));
  }
  if (principal.kind !== 'admin' && row.is_public !== 1) throw new ApiError(403, 'storage_forbidden', {}, { field: 's3_config_id' });
  return row;
}

export async function touchStorageConfig(db: DB, id: string, now: Date) {
  await db.updateTable('storage_configs').set({ last_used: now.toISOString() }).where('id', '=', id).execute();
}
