import type { Kysely, Migration } from 'kysely';

/**
 * WebDAV state that must outlive a restart and be shared by every instance: dead properties set by PROPPATCH
 * (one row per resource path and property, the property element kept as XML so that namespaces and nested markup
 * come back as they were set), and write locks (LOCK/UNLOCK) with their expiry.
 */
export const webdav: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dav_properties')
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('namespace', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('xml', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('dav_properties_pk', ['path', 'namespace', 'name'])
      .execute();

    await db.schema
      .createTable('dav_locks')
      .addColumn('token', 'text', (c) => c.primaryKey())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('depth', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('owner', 'text')
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dav_locks_path').on('dav_locks').column('path').execute();
  },
};
