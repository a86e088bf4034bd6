import { sql, type Kysely, type Migration } from 'kysely';

/** The first schema: pastes, file shares, storage configs, mounts, API keys, admins and settings; later migrations only add to it. */
export const initialSchema: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('admins')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('admin_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('admin_id', 'text', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('admin_tokens_admin').on('admin_tokens').column('admin_id').execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_encrypted', 'text', (c) => c.notNull())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('text_permission', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('file_permission', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mount_permission', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('basic_path', 'text', (c) => c.notNull().defaultTo('/'))
      .addColumn('expires_at', 'text')
      .addColumn('last_used', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('pastes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('remark', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pastes_created_by').on('pastes').columns(['created_by', 'created_at']).execute();

    await db.schema
      .createTable('storage_configs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('storage_type', 'text', (c) => c.notNull().check(sql`storage_type in ('LOCAL', 'S3')`))
      .addColumn('provider_type', 'text', (c) => c.notNull())
      .addColumn('endpoint_url', 'text')
      .addColumn('region', 'text')
      .addColumn('bucket_name', 'text')
      .addColumn('access_key_id', 'text')
      .addColumn('secret_access_key_encrypted', 'text')
      .addColumn('path_style', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('default_folder', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('total_storage_bytes', 'integer')
      .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('last_used', 'text')
      .execute();

    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mimetype', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('storage_config_id', 'text', (c) => c.notNull().references('storage_configs.id'))
      .addColumn('storage_path', 'text', (c) => c.notNull())
      .addColumn('s3_url', 'text')
      .addColumn('etag', 'text')
      .addColumn('remark', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'committed')`))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_created_by').on('files').columns(['created_by', 'created_at']).execute();
    await db.schema.createIndex('files_storage_config').on('files').column('storage_config_id').execute();

    await db.schema
      .createTable('mounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('mount_path', 'text', (c) => c.notNull().unique())
      .addColumn('storage_type', 'text', (c) => c.notNull())
      .addColumn('storage_config_id', 'text', (c) => c.notNull().references('storage_configs.id'))
      .addColumn('remark', 'text')
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cache_ttl', 'integer', (c) => c.notNull().defaultTo(300))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('system_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
