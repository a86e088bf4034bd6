import type { Kysely, Migration } from 'kysely';

/**
 * Scheduled syncs between two mount paths (server/features/sync-schedules/): each run, when due by its cron
 * expression or asked for, is a sync job. `next_run_at` is computed on every change and after each run, so that
 * the leader finds the due ones with one indexed query.
 */
export const syncSchedules: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sync_schedules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('cron', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('next_run_at', 'text')
      .addColumn('last_run_at', 'text')
      .addColumn('last_job_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sync_schedules_due').on('sync_schedules').columns(['enabled', 'next_run_at']).execute();
  },
};
