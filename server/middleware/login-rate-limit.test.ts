import { describe, expect, it } from 'vitest';
import { FakeClock, MINUTE } from '../../tests/fixtures/test-app';
import { LOGIN_FAILURE_LIMIT, LOGIN_WINDOW_MS, LoginRateLimiter } from './login-rate-limit';

describe('LoginRateLimiter', () => {
  it('allows up to 10 failures in 15 minutes', () => {
    expect(LOGIN_FAILURE_LIMIT).toBe(10);
    expect(LOGIN_WINDOW_MS).toBe(15 * MINUTE);
  });

  it('blocks after the limit and says for how many minutes', () => {
    const clock = new FakeClock();
    const limiter = new LoginRateLimiter(clock.now);
    for (let i = 0; i < 9; i++) limiter.fail('ip|admin');
    expect(limiter.blockedForMinutes('ip|admin')).toBe(0);
    limiter.fail('ip|admin');
    expect(limiter.blockedForMinutes('ip|admin')).toBe(15);
    clock.advance(7 * MINUTE);
    expect(limiter.blockedForMinutes('ip|admin')).toBe(8);
    clock.advance(8 * MINUTE - 1);
    expect(limiter.blockedForMinutes('ip|admin')).toBe(1);
    clock.advance(1);
    expect(limiter.blockedForMinutes('ip|admin')).toBe(0);
  });

  it('waits for the oldest failure that still counts, not the first ever', () => {
    const clock = new FakeClock();
    const limiter = new LoginRateLimiter(clock.now);
    for (let i = 0; i < 12; i++) {
      limiter.fail('k');
      clock.advance(MINUTE);
    }
    // Failures at minutes 0..11, now minute 12: the block lasts until the third failure (minute 2) is 15 min old.
    expect(limiter.blockedForMinutes('k')).toBe(5);
  });

  it('keeps keys apart and forgets a key on success', () => {
    const limiter = new LoginRateLimiter(new FakeClock().now);
    for (let i = 0; i < 10; i++) {
      limiter.fail('a');
      limiter.fail('b');
    }
    expect(limiter.blockedForMinutes('c')).toBe(0);
    limiter.succeed('a');
    expect(limiter.blockedForMinutes('a')).toBe(0);
    expect(limiter.blockedForMinutes('b')).toBeGreaterThan(0);
  });
});

describe('LoginRateLimiter memory', () => {
  it('forgets pairs whose failures left the window once many are tracked', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const limiter = new LoginRateLimiter(() => now);
    for (let i = 0; i < 1000; i++) limiter.fail(`1.2.3.4|user${i}`);
    expect(limiter.trackedCount).toBe(1000);
    now = new Date(now.getTime() + LOGIN_WINDOW_MS + 1);
    limiter.fail('1.2.3.4|fresh');
    limiter.fail('1.2.3.4|fresh2');
    expect(limiter.trackedCount).toBe(2);
  });
});
