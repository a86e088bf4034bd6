import { randomUUID } from 'node:crypto';
import type { ServerConfig } from '../config';
import type { DB } from '../db/database';
import { lockTransaction } from '../db/dialect';
import { hashPassword } from '../security/passwords';
import { randomBase62 } from '../security/tokens';

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
