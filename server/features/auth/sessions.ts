import type { DB } from '../../db/database';
import { newSessionToken, sha256 } from '../../security/tokens';

/** Issues a bearer token; only its hash is stored. */
export async function issueToken(db: DB, adminId: string, now: Date, ttlHours: number) {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + ttlHours * 3_600_000).toISOString();
  await db
    .insertInto('admin_tokens')
    .values({ token_hash: sha256(token), admin_id: adminId, expires_at: expiresAt, created_at: now.toISOString() })
    .execute();
  // Expired tokens are of no use to anyone: sweep them while we are here.
  await db.deleteFrom('admin_tokens').where('expires_at', '<=', now.toISOString()).execute();
  return { token, expiresAt };
}

/** The admin behind a token, or the reason there is none. */
export const resolveToken = (db: DB, token: string, now: Date) => resolveTokenHash(db, sha256(token), now);

/** The admin of a session known by its hash (an event stream's ticket names the session that asked for it). */
export async function resolveTokenHash(db: DB, tokenHash: string, now: Date) {
  const row = await db
    .selectFrom('admin_tokens')
    .innerJoin('admins', 'admins.id', 'admin_tokens.admin_id')
    .select(['admins.id as adminId', 'admins.username', 'admin_tokens.expires_at', 'admin_tokens.token_hash'])
    .where('admin_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return undefined;
  return { adminId: row.adminId, username: row.username, tokenHash: row.token_hash };
}

export const revokeToken = (db: DB, tokenHash: string) =>
  db.deleteFrom('admin_tokens').where('token_hash', '=', tokenHash).execute();

export const revokeAllTokens = (db: DB, adminId: string) =>
  db.deleteFrom('admin_tokens').where('admin_id', '=', adminId).execute();
