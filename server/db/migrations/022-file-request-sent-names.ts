import type { Kysely, Migration } from 'kysely';

/**
 * A file request's upload keeps the name its sender gave beside the free name it was stored under ("contract.pdf"
 * stored as "contract (1).pdf"): the sender's page lists what they sent, the creator's the file they find. Rows from
 * before have none: the stored name stands for both.
 */
export const fileRequestSentNames: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('file_request_uploads').addColumn('sent_name', 'text').execute();
  },
};
