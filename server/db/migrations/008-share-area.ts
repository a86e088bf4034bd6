import type { Kysely, Migration } from 'kysely';

/**
 * File shares' objects move into the storage's share area (services/share-area.ts moves them, after this). While an
 * S3 object is copied there, the record remembers where it came from until the original is deleted, so a move that
 * stops midway leaves nothing behind.
 */
export const shareArea: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('moved_from', 'text').execute();
  },
};
