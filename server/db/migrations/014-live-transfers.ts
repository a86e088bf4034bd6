import type { Kysely, Migration } from 'kysely';

/**
 * What every instance is receiving or sending right now (server/features/transfers/), written at most about once a
 * second per transfer so that the admin's task manager sees all instances; finished rows stay a day, then the
 * leader's sweep removes them. Byte counts are bigint, as everywhere.
 */
export const liveTransfers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('live_transfers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('direction', 'text', (c) => c.notNull())
      .addColumn('who_kind', 'text', (c) => c.notNull())
      .addColumn('who_name', 'text', (c) => c.notNull())
      .addColumn('who_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('bytes_done', 'bigint', (c) => c.notNull())
      .addColumn('bytes_total', 'bigint')
      .addColumn('speed', 'bigint')
      .addColumn('parts_in_flight', 'integer')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('instance', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('live_transfers_updated').on('live_transfers').column('updated_at').execute();
  },
};
