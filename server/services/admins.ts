import { randomUUID } from 'node:crypto';
import type { ServerConfig } from '../config';
import type { DB } from '../db/database';
import { hashPassword } from '../security/passwords';
import { randomBase62 } from '../security/tokens';

/**
 * First start with an empty database creates the admin. Returns the generated password when none was
 * configured, so that index.ts can print it once; it is never stored in plain text.
 */
export async function ensureAdmin(db: DB, config: ServerConfig, now: Date): Promise<string | undefined> {
  const existing = await db.selectFrom('admins').select('id').limit(1).executeTakeFirst();
  if (existing) return undefined;
  const password = config.adminPassword ?? randomBase62(20);
  const at = now.toISOString();
  await db
    .insertInto('admins')
    .values({
      id: randomUUID(),
      username: config.adminUsername,
      password_hash: await hashPassword(password),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return config.adminPassword ? undefined : password;
}
