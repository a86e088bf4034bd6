import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ServerConfig } from '../../config';
import type { DB } from '../../db/database';
import { lockTransaction } from '../../db/dialect';
import type { AdminsTable } from '../../db/schema';
import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from '../../security/passwords';
import { randomBase62 } from '../../security/tokens';

/**
 * First start with an empty database creates the admin. Returns the generated password when none was
 * configured, so that index.ts can print it once; it is never stored in plain text. Instances starting together
 * on one database take turns: one creates the admin, the others find it.
 */
export async function ensureAdmin(db: DB, config: ServerConfig, now: Date): Promise<string | undefined> {
  if (await db.selectFrom('admins').select('id').limit(1).executeTakeFirst()) return undefined;
  const password = config.adminPassword ?? randomBase62(20);
  const passwordHash = await hashPassword(password);
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    await lockTransaction(trx, 'ensure-admin');
    if (await trx.selectFrom('admins').select('id').limit(1).executeTakeFirst()) return undefined;
    await trx
      .insertInto('admins')
      .values({ id: randomUUID(), username: config.adminUsername, password_hash: passwordHash, created_at: at, updated_at: at })
      .execute();
    return config.adminPassword ? undefined : password;
  });
}

/**
 * The stored password of an admin imported from CloudPaste (server/tools/import-cloudpaste): this prefix, then the
 * unsalted SHA-256 (hex) CloudPaste kept. It is accepted at one login and replaced there by scrypt.
 */
export const CLOUDPASTE_HASH_PREFIX = 'cloudpaste-sha256$';

/**
 * Whether `password` is the admin's. An unknown admin costs one scrypt like a known one, so that timing does not
 * tell which user names exist; so does a CloudPaste hash, matched or not, since a match hashes the password anew.
 */
export async function verifyAdminPassword(
  db: DB,
  admin: Pick<AdminsTable, 'id' | 'password_hash'> | undefined,
  password: string,
  now: Date,
): Promise<boolean> {
  const stored = admin?.password_hash ?? UNKNOWN_USER_HASH;
  if (!admin || !stored.startsWith(CLOUDPASTE_HASH_PREFIX)) return verifyPassword(password, stored);
  const expected = Buffer.from(stored.slice(CLOUDPASTE_HASH_PREFIX.length), 'hex');
  const actual = createHash('sha256').update(password, 'utf8').digest();
  if (expected.length !== actual.length || !timingSafeEqual(actual, expected)) {
    await verifyPassword(password, UNKNOWN_USER_HASH);
    return false;
  }
  // Only while the row still holds that hash: a login at the same moment may have replaced it already.
  await db
    .updateTable('admins')
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where('id', '=', admin.id)
    .where('password_hash', '=', stored)
    .execute();
  return true;
}
