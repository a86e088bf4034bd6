export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const SWEEP_ABOVE = 1000;

/**
 * Counts failed logins per IP + username in a sliding window. In memory: one server process serves the app,
 * and a restart forgetting failures is acceptable.
 */
export class LoginRateLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => Date) {}

  private recent(key: string): number[] {
    const since = this.now().getTime() - LOGIN_WINDOW_MS;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length > 0) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /** Minutes until the next try is allowed, or 0 when it is allowed now. */
  blockedForMinutes(key: string): number {
    const recent = this.recent(key);
    if (recent.length < LOGIN_FAILURE_LIMIT) return 0;
    const oldest = recent[recent.length - LOGIN_FAILURE_LIMIT] ?? 0;
    return Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - this.now().getTime()) / 60_000));
  }

  fail(key: string) {
    this.failures.set(key, [...this.recent(key), this.now().getTime()]);
    // Guesses spread over many usernames would otherwise leave stale keys behind forever.
    if (this.failures.size > SWEEP_ABOVE) for (const stale of [...this.failures.keys()]) this.recent(stale);
  }

  /** How many IP + username pairs are tracked (for tests). */
  get trackedCount(): number {
    return this.failures.size;
  }

  succeed(key: string) {
    this.failures.delete(key);
  }
}
