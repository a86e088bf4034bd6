import { sql, type Kysely, type Migration } from 'kysely';

/** Indexes for file shares and the dashboard, and at most one default storage config. */
export const fileSharesIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    // Lists (committed, newest first), the sweep of stale pending uploads, the dashboard's 7 days.
    await db.schema.createIndex('files_status_created').on('files').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('pastes_created_at').on('pastes').column('created_at').execute();
    await db.schema
      .createIndex('storage_configs_one_default')
      .on('storage_configs')
      .column('is_default')
      .unique()
      .where(sql.ref('is_default'), '=', 1)
      .execute();
    await db.schema.createIndex('mounts_storage_config').on('mounts').column('storage_config_id').execute();
  },
};
