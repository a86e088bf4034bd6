import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, MINUTE } from '../../../tests/fixtures/test-app';
import { createTestDatabase, type TestDatabase } from '../../../tests/fixtures/test-database';
import { LOGIN_FAILURE_LIMIT, LOGIN_WINDOW_MS, LoginRateLimiter } from './login-rate-limit';

describe('LoginRateLimiter', () => {
  let database: TestDatabase;
  let clock: FakeClock;
  let limiter: LoginRateLimiter;
  beforeEach(async () => {
    database = await createTestDatabase();
    clock = new FakeClock();
    limiter = new LoginRateLimiter(database.db, clock.now);
  });
  afterEach(() => database.close());

  const fail = async (key: string, times = 1) => {
    for (let i = 0; i < times; i++) expect(await limiter.attempt(key)).toBe(0);
  };

  it('allows up to 10 failures in 15 minutes', () => {
    expect(LOGIN_FAILURE_LIMIT).toBe(10);
    expect(LOGIN_WINDOW_MS).toBe(15 * MINUTE);
  });

  it('blocks after the limit and says for how many minutes', async () => {
    await fail('ip|admin', 10);
    expect(await limiter.attempt('ip|admin')).toBe(15);
    clock.advance(7 * MINUTE);
    expect(await limiter.attempt('ip|admin')).toBe(8);
    clock.advance(8 * MINUTE - 1);
    expect(await limiter.attempt('ip|admin')).toBe(1);
    clock.advance(1);
    expect(await limiter.attempt('ip|admin')).toBe(0);
  });

  it('waits for the oldest failure that still counts, not the first ever', async () => {
    for (let i = 0; i < 12; i++) {
      // Failures 11 and 12 come while blocked and do not count.
      await limiter.attempt('k');
      clock.advance(MINUTE);
    }
    // Counted failures at minutes 0..9, now minute 12: the block lasts until the first is 15 minutes old.
    expect(await limiter.attempt('k')).toBe(3);
    clock.advance(3 * MINUTE);
    // Minute 15: the failure of minute 0 left the window, nine remain; one more try is allowed.
    expect(await limiter.attempt('k')).toBe(0);
    expect(await limiter.attempt('k')).toBe(1);
  });

  it('keeps keys apart and forgets a key on success', async () => {
    await fail('a', 10);
    await fail('b', 10);
    expect(await limiter.attempt('c')).toBe(0);
    await limiter.succeed('a');
    expect(await limiter.attempt('a')).toBe(0);
    expect(await limiter.attempt('b')).toBeGreaterThan(0);
  });

  it('lets exactly the limit through when tries come at once, through any number of limiters on the database', async () => {
    const others = [new LoginRateLimiter(database.db, clock.now), new LoginRateLimiter(database.db, clock.now)];
    const all = [limiter, ...others];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => all[i % all.length]?.attempt('race')));
    expect(answers.filter((minutes) => minutes === 0)).toHaveLength(LOGIN_FAILURE_LIMIT);
  });

  it('forgets pairs whose failures left the window', async () => {
    for (let i = 0; i < 50; i++) await fail(`1.2.3.4|user${i}`);
    const count = async () => Number((await database.db.selectFrom('login_failures').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(await count()).toBe(50);
    clock.advance(LOGIN_WINDOW_MS + 1);
    await fail('1.2.3.4|fresh');
    expect(await count()).toBe(1);
  });
});
