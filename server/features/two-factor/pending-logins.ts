import type { DB } from '../../db/database';
import { newSessionToken, sha256 } from '../../security/tokens';

/** A right password buys this long to give the second step. */
export const PENDING_LOGIN_TTL_MS = 5 * 60_000;

/** A pending login: not a session, only the right to try a second step. Its token is stored as a hash. */
export async function issuePendingLogin(db: DB, adminId: string, limitKey: string, now: Date) {
  const pendingToken = newSessionToken();
  const expiresAt = new Date(now.getTime() + PENDING_LOGIN_TTL_MS).toISOString();
  await db
    .insertInto('admin_pending_logins')
    .values({ token_hash: sha256(pendingToken), admin_id: adminId, limit_key: limitKey, challenge: null, expires_at: expiresAt, created_at: now.toISOString() })
    .execute();
  await db.deleteFrom('admin_pending_logins').where('expires_at', '<=', now.toISOString()).execute();
  return { pendingToken, expiresAt };
}

export async function pendingLoginOf(db: DB, pendingToken: string, now: Date) {
  const row = await db
    .selectFrom('admin_pending_logins')
    .innerJoin('admins', 'admins.id', 'admin_pending_logins.admin_id')
    .select(['admin_pending_logins.token_hash', 'admin_pending_logins.admin_id', 'admin_pending_logins.limit_key', 'admin_pending_logins.challenge', 'admin_pending_logins.expires_at', 'admins.username'])
    .where('admin_pending_logins.token_hash', '=', sha256(pendingToken))
    .executeTakeFirst();
  return row && row.expires_at > now.toISOString() ? row : undefined;
}

export type PendingLogin = NonNullable<Awaited<ReturnType<typeof pendingLoginOf>>>;

/** Keeps the challenge of the passkey assertion asked for (a new request replaces it; null once tried). */
export const setPendingChallenge = (db: DB, pending: PendingLogin, challenge: string | null) =>
  db.updateTable('admin_pending_logins').set({ challenge }).where('token_hash', '=', pending.token_hash).execute();

/** Ends a pending login; true for the one request that ended it, so that one pending token makes one session. */
export async function consumePendingLogin(db: DB, pending: PendingLogin): Promise<boolean> {
  const result = await db.deleteFrom('admin_pending_logins').where('token_hash', '=', pending.token_hash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
