import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect';

/** What every key_hash is: the SHA-256 of the key, in lowercase hex (security/tokens.ts `sha256`). */
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * API keys hashed at rest: the sealed copy of each key (`key_encrypted`, kept so that admins could copy a key again)
 * goes; what stays is the key's SHA-256 (`key_hash`, how a presented key is found) and its first characters
 * (`key_prefix`, shown in lists).
 *
 * Existing keys keep working without being opened: since 001 `key_hash` is NOT NULL and every key was stored by
 * one code path that set it to `sha256(key)`, which is what authentication looks up. A row whose hash is not a
 * SHA-256 could only come from editing the database by hand; the migration then stops before changing anything,
 * rather than drop the only copy of a key that works (it has no secret box to open that copy with).
 *
 * The column is emptied before it is dropped: PostgreSQL's DROP COLUMN leaves the values in the rows until they are
 * written again, while an UPDATE leaves only dead row versions that vacuum removes. On SQLite (where migrations run
 * outside a transaction; each step below is safe to run again) secure_delete zeroes the freed bytes while the table
 * is rewritten, and a checkpoint empties the write-ahead log of the pages that still held the sealed keys.
 */
export const apiKeyHashes: Migration = {
  async up(db: Kysely<unknown>) {
    const rows = await sql<{ name: string; key_hash: string }>`select name, key_hash from api_keys`.execute(db);
    const broken = rows.rows.filter((row) => !SHA256_HEX.test(row.key_hash));
    if (broken.length > 0) {
      throw new Error(
        `API keys ${broken.map((row) => JSON.stringify(row.name)).join(', ')} have no SHA-256 hash (was the database ` +
          'edited by hand?): delete them, or restore their key_hash, then start again. Nothing was changed.',
      );
    }

    const sqlite = dialectOf(db) === 'sqlite';
    const secureDelete = sqlite ? (await sql<{ secure_delete: number }>`pragma secure_delete`.execute(db)).rows[0]?.secure_delete : 1;
    if (!secureDelete) await sql`pragma secure_delete = on`.execute(db);
    try {
      await sql`update api_keys set key_encrypted = ''`.execute(db);
      await db.schema.alterTable('api_keys').dropColumn('key_encrypted').execute();
    } finally {
      if (!secureDelete) await sql`pragma secure_delete = off`.execute(db);
    }
    if (sqlite) await sql`pragma wal_checkpoint(truncate)`.execute(db);
  },
};
