import type { Kysely, Migration } from 'kysely';

/**
 * The admin's second factor (server/features/two-factor/): a TOTP secret (sealed with the encryption key, as storage
 * secrets are) and the last time step accepted, so that a code is never taken twice; recovery codes as keyed hashes;
 * passkeys (WebAuthn credentials); and the logins whose password was right and that wait for their second step. The
 * same on SQLite and PostgreSQL: text, integers and one bigint (a passkey's signature counter is 32 bits unsigned).
 */
export const twoFactor: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('admin_second_factors')
      .addColumn('admin_id', 'text', (c) => c.primaryKey().references('admins.id').onDelete('cascade'))
      .addColumn('totp_secret', 'text')
      .addColumn('totp_pending_secret', 'text')
      .addColumn('totp_last_step', 'integer')
      .addColumn('totp_enabled_at', 'text')
      .addColumn('passkey_challenge', 'text')
      .addColumn('passkey_challenge_expires_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('admin_recovery_codes')
      .addColumn('admin_id', 'text', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('admin_recovery_codes_pk', ['admin_id', 'code_hash'])
      .execute();
    await db.schema
      .createTable('admin_passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('admin_id', 'text', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('admin_passkeys_admin').on('admin_passkeys').column('admin_id').execute();
    await db.schema
      .createTable('admin_pending_logins')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('admin_id', 'text', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('limit_key', 'text', (c) => c.notNull())
      .addColumn('challenge', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
