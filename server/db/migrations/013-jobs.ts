import { sql, type Kysely, type Migration } from 'kysely';
import { addInsertionOrder } from '../dialect';

/**
 * Server jobs (server/features/jobs/): copies, moves and syncs the server runs from these records, so that they go
 * on without the browser and survive a restart or a kill. A job names who started it and what it needs to act as
 * them again (the admin, or the API key read anew at each start); the instance running it holds it by a lease that
 * another instance takes over once it lapses. Its items are the files (and folders, and a mirror's deletions), each
 * with the copy engine's resume state in `checkpoint` (JSON: upload id, part size, parts done).
 */
export const jobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('copy', 'move', 'sync')`))
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status in ('queued', 'running', 'paused', 'completed', 'partial', 'failed', 'cancelled')`),
      )
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_by_kind', 'text', (c) => c.notNull())
      .addColumn('created_by_name', 'text', (c) => c.notNull())
      .addColumn('created_by_id', 'text')
      .addColumn('principal_kind', 'text', (c) => c.notNull().check(sql`principal_kind in ('admin', 'apiKey')`))
      .addColumn('principal_id', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('on_conflict', 'text', (c) => c.notNull())
      .addColumn('sync_mode', 'text')
      .addColumn('schedule_id', 'text')
      .addColumn('items_total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('items_done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('items_skipped', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('items_failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('speed', 'bigint')
      .addColumn('current_item', 'text')
      .addColumn('error_reason', 'text')
      .addColumn('owner_instance', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'updated_at']).execute();
    await db.schema.createIndex('jobs_created_by').on('jobs').columns(['created_by', 'created_at']).execute();
    await addInsertionOrder(db, 'jobs');

    await db.schema
      .createTable('job_items')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('file', 'folder', 'delete')`))
      .addColumn('source_path', 'text')
      .addColumn('target_path', 'text', (c) => c.notNull())
      .addColumn('placed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'running', 'done', 'skipped', 'failed')`))
      .addColumn('reason', 'text')
      .addColumn('reason_message', 'text')
      .addColumn('checkpoint', 'text')
      .addPrimaryKeyConstraint('job_items_pk', ['job_id', 'seq'])
      .execute();
    await db.schema.createIndex('job_items_status').on('job_items').columns(['job_id', 'status', 'seq']).execute();

    // Sync schedules: a sync job started by cron, as the admin who made the schedule.
    await db.schema
      .createTable('sync_schedules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('cron', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('copy-new-and-changed', 'mirror')`))
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('admin_id', 'text', (c) => c.notNull())
      .addColumn('next_run_at', 'text')
      .addColumn('last_run_at', 'text')
      .addColumn('last_job_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sync_schedules_due').on('sync_schedules').columns(['enabled', 'next_run_at']).execute();
    await addInsertionOrder(db, 'sync_schedules');
  },
};
