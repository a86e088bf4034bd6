import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * Each view, download and peek of a share (server/features/access-log/): a row points at its paste or its file
 * share, never both, and goes with it when the share is deleted. Rows are written in batches about once a second,
 * identical accesses of one second as one row with their `count`; the leader's sweep removes those older than the
 * retention setting (by `at`).
 */
export const accessLog: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === 'postgres';
    await db.schema
      .createTable('share_access_log')
      .addColumn('id', postgres ? 'bigint' : 'integer', (c) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey()))
      .addColumn('paste_id', 'text', (c) => c.references('pastes.id').onDelete('cascade'))
      .addColumn('file_id', 'text', (c) => c.references('files.id').onDelete('cascade'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('view', 'peek')`))
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('completed', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addCheckConstraint('share_access_log_one_share', sql`(paste_id is null) <> (file_id is null)`)
      .execute();
    await db.schema.createIndex('share_access_log_paste').on('share_access_log').columns(['paste_id', 'at']).execute();
    await db.schema.createIndex('share_access_log_file').on('share_access_log').columns(['file_id', 'at']).execute();
    await db.schema.createIndex('share_access_log_at').on('share_access_log').column('at').execute();
  },
};
