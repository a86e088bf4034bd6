import { DEFAULT_CACHE_TTL, mountPathProblem } from '../../../contract/mounts';
import { S3_PROVIDERS } from '../../../contract/storage';
import { createdAt, exists, isoTime, type ImportContext } from './context';
import { decodeCloudPasteSecret } from './secrets';
import type { CpMount, CpS3Config } from './source';

const providerOf = (name: string): string => ((S3_PROVIDERS as readonly string[]).includes(name) ? name : 'Other');

/** Why a row naming a storage config this import does not bring is refused. */
export const NOT_BROUGHT_CONFIG = "its storage config is not one this import brings (an id of the install's own, or one missing from the source)";

/**
 * Whether the install's config of this id is the one an earlier run made of this row: an S3 config of the same
 * bucket and the same keys. A source could name any id; only one holding the storage's own secret shows it is ours.
 */
async function madeBefore(ctx: ImportContext, config: CpS3Config, accessKeyId: string, secretAccessKey: string): Promise<boolean> {
  const row = await ctx.deps.db.selectFrom('storage_configs').selectAll().where('id', '=', config.id).executeTakeFirstOrThrow();
  if (row.storage_type !== 'S3' || row.bucket_name !== config.bucket_name || row.access_key_id !== accessKeyId) return false;
  try {
    return row.secret_access_key_encrypted !== null && ctx.deps.secrets.open(row.secret_access_key_encrypted) === secretAccessKey;
  } catch {
    return false; // sealed with another key: not a config this import made
  }
}

/**
 * CloudPaste's S3 configs, keeping their ids. Both key halves are decoded from CloudPaste's form (a wrong --secret
 * stops the import before anything is written); the secret half is sealed with this install's key. CloudPaste's
 * default becomes ours unless the import merges into an install that has its own default. A config whose id the
 * install holds is refused unless an earlier run made it of this same row.
 */
export async function importStorageConfigs(ctx: ImportContext): Promise<void> {
  const { db, secrets } = ctx.deps;
  for (const config of ctx.data.s3Configs) {
    const accessKeyId = decodeCloudPasteSecret(config.access_key_id, ctx.options.secret);
    const secretAccessKey = decodeCloudPasteSecret(config.secret_access_key, ctx.options.secret);
    if (await exists(ctx, 'storage_configs', config.id)) {
      if (await madeBefore(ctx, config, accessKeyId, secretAccessKey)) {
        ctx.brought.storageConfigs.add(config.id);
        ctx.report.alreadyThere('storage configs');
      } else {
        ctx.report.refuse('storage configs', config.id, config.name, "its id is a storage config of the install's own, not one an earlier import made");
      }
      continue;
    }
    const hasDefault = (await db.selectFrom('storage_configs').select('id').where('is_default', '=', 1).executeTakeFirst()) !== undefined;
    const makeDefault = config.is_default === 1 && (!ctx.options.merge || !hasDefault);
    if (makeDefault) await db.updateTable('storage_configs').set({ is_default: 0 }).where('is_default', '=', 1).execute();
    const at = createdAt(ctx, config.created_at);
    await db
      .insertInto('storage_configs')
      .values({
        id: config.id,
        name: config.name,
        storage_type: 'S3',
        provider_type: providerOf(config.provider_type),
        endpoint_url: (ctx.options.s3Endpoint ?? config.endpoint_url).replace(/\/+$/, ''),
        region: config.region || 'us-east-1',
        bucket_name: config.bucket_name,
        access_key_id: accessKeyId,
        secret_access_key_encrypted: secrets.seal(secretAccessKey),
        path_style: config.path_style ? 1 : 0,
        // CloudPaste's folder was where its shares went, while its mounts saw the whole bucket; here a config's
        // folder is its mounts' root too, and shares live in the share area: the bucket root keeps the mounts as they were.
        default_folder: '',
        total_storage_bytes: config.total_storage_bytes || null,
        is_public: config.is_public ? 1 : 0,
        is_default: makeDefault ? 1 : 0,
        created_by: 'admin',
        created_at: at,
        updated_at: at,
        last_used: isoTime(config.last_used),
      })
      .execute();
    ctx.brought.storageConfigs.add(config.id);
    ctx.report.add('storage configs');
  }
}

/** Whether the install's mount of this id is the one an earlier run made of this row: its path, on a config brought. */
async function mountMadeBefore(ctx: ImportContext, mount: CpMount): Promise<boolean> {
  const row = await ctx.deps.db.selectFrom('mounts').select(['mount_path', 'storage_config_id']).where('id', '=', mount.id).executeTakeFirstOrThrow();
  return row.mount_path === mount.mount_path && ctx.brought.storageConfigs.has(row.storage_config_id);
}

/**
 * CloudPaste's mounts of S3 storage on a config this import brings; the other storage types have no driver here.
 * A mount on any other config (the install's own, or one missing from the source) is refused.
 */
export async function importMounts(ctx: ImportContext): Promise<void> {
  const { db } = ctx.deps;
  for (const mount of ctx.data.mounts) {
    const item = mount.mount_path;
    if (await exists(ctx, 'mounts', mount.id)) {
      if (await mountMadeBefore(ctx, mount)) ctx.report.alreadyThere('mounts');
      else ctx.report.refuse('mounts', mount.id, item, "its id is a mount of the install's own, not one an earlier import made");
      continue;
    }
    if (mount.storage_type !== 'S3') {
      ctx.report.skip('mounts', item, `its storage type ${mount.storage_type} has no driver in Clipstash (S3 and LOCAL only)`);
      continue;
    }
    if (!mount.storage_config_id || !ctx.brought.storageConfigs.has(mount.storage_config_id)) {
      ctx.report.refuse('mounts', mount.id, item, NOT_BROUGHT_CONFIG);
      continue;
    }
    const problem = mountPathProblem(mount.mount_path);
    if (problem) {
      ctx.report.skip('mounts', item, `the path is not allowed here (${problem})`);
      continue;
    }
    if (await db.selectFrom('mounts').select('id').where('mount_path', '=', mount.mount_path).executeTakeFirst()) {
      ctx.report.skip('mounts', item, 'the install already has a mount at that path');
      continue;
    }
    const at = createdAt(ctx, mount.created_at);
    await db
      .insertInto('mounts')
      .values({
        id: mount.id,
        name: mount.name,
        mount_path: mount.mount_path,
        storage_type: 'S3',
        storage_config_id: mount.storage_config_id,
        remark: mount.remark || null,
        sort_order: mount.sort_order ?? 0,
        cache_ttl: mount.cache_ttl ?? DEFAULT_CACHE_TTL,
        is_active: mount.is_active ? 1 : 0,
        created_by: 'admin',
        created_at: at,
        updated_at: at,
      })
      .execute();
    ctx.report.add('mounts');
  }
}
