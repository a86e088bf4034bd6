import type { Kysely, Migration } from 'kysely';

/**
 * Multipart uploads of file shares: a pending record remembers its storage upload (id and part size, so that
 * part URLs are signed for the right size and a stale upload is aborted on storage), and URL uploads keep the
 * address the bytes came from.
 */
export const multipartUploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('upload_id', 'text').execute();
    await db.schema.alterTable('files').addColumn('part_size', 'integer').execute();
    await db.schema.alterTable('files').addColumn('source_url', 'text').execute();
  },
};
