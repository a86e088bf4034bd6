import type { Kysely, Migration } from 'kysely';

/**
 * Names in a mount held by a write in progress (server/features/fs/free-names.ts): a multipart upload, a presigned PUT, a
 * planned client copy, a file request's upload. The unique key makes taking a name atomic across processes and
 * instances; a row past `expires_at` no longer holds its name and is swept.
 */
export const nameReservations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('fs_name_reservations')
      .addColumn('storage_config_id', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('fs_name_reservations_pk', ['storage_config_id', 'storage_key'])
      .execute();
    await db.schema.createIndex('fs_name_reservations_expiry').on('fs_name_reservations').column('expires_at').execute();
  },
};
