import type { Kysely, Migration } from 'kysely';

/**
 * State that several instances on one database must share, and that lived in one process's memory before:
 * failed logins (the rate limit), leases (one instance at a time runs a chore such as the upload sweep), and a
 * version per mount that every write bumps, so that each instance drops its cached listings of a changed mount.
 */
export const sharedState: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('login_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_failures_updated').on('login_failures').column('updated_at').execute();

    await db.schema
      .createTable('leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema.alterTable('mounts').addColumn('cache_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
