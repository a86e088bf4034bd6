import { sql, type Kysely, type Migration } from 'kysely';

/**
 * End-to-end encrypted pastes (contract/paste-encryption.ts): the scheme their content is encrypted with, null for
 * plain text. The server cannot read such content, so it must know never to render or preview it.
 */
export const pasteEncryption: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('pastes')
      .addColumn('encryption', 'text', (c) => c.check(sql`encryption in ('aes-256-gcm')`))
      .execute();
  },
};
