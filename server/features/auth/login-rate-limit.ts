import type { DB } from '../../db/database';
import { lockTransaction } from '../../db/dialect';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Counts failed logins per IP + username in a sliding window, in the database: every instance on it sees the same
 * count, and a restart forgets nothing. One row per key holds the failures still in the window.
 */
export class LoginRateLimiter {
  /** `rule`: how many tries a key may make in a window; logins by default, other uses (file requests) their own. */
  constructor(
    private readonly db: DB,
    private readonly now: () => Date,
    private readonly rule = { limit: LOGIN_FAILURE_LIMIT, windowMs: LOGIN_WINDOW_MS },
  ) {}

  /**
   * Minutes until the next try is allowed, or 0 when this one is: then it is already counted as a failure (a success
   * clears it with `succeed`). Checking and counting happen under one lock per key, so guesses sent at once to any
   * instances cannot all pass the check before one of them is counted. Blocked tries are not counted.
   */
  async attempt(key: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await lockTransaction(trx, `login:${key}`);
      const now = this.now().getTime();
      const { limit, windowMs } = this.rule;
      const since = now - windowMs;
      const row = await trx.selectFrom('login_failures').select('failures').where('key', '=', key).executeTakeFirst();
      const recent = row ? (JSON.parse(row.failures) as number[]).filter((at) => at > since) : [];
      if (recent.length >= limit) {
        const oldest = recent[recent.length - limit] ?? now;
        return Math.max(1, Math.ceil((oldest + windowMs - now) / 60_000));
      }
      const failures = JSON.stringify([...recent, now].slice(-limit));
      const updatedAt = new Date(now).toISOString();
      await trx
        .insertInto('login_failures')
        .values({ key, failures, updated_at: updatedAt })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ failures, updated_at: updatedAt }))
        .execute();
      // Guesses spread over many usernames would otherwise leave rows behind forever.
      await trx.deleteFrom('login_failures').where('updated_at', '<=', new Date(since).toISOString()).execute();
      return 0;
    });
  }

  async succeed(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }
}
