import { describe, expect, it } from 'vitest';
import { BACKOFF_MS, classifyFailure } from './retry';

describe('classifyFailure', () => {
  it('signs again when the URL expired', () => {
    const body = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    expect(classifyFailure({ status: 403, body }, 0, true)).toEqual({ action: 'resign' });
  });

  it('backs off 0, 1, 3, 5 s on 429, 5xx, network errors and time-outs, then fails', () => {
    for (const outcome of [{ status: 429 }, { status: 500 }, { status: 503 }, { code: 'network' as const }, { code: 'timeout' as const }]) {
      const delays = BACKOFF_MS.map((_, retries) => classifyFailure(outcome, retries, true));
      expect(delays).toEqual(BACKOFF_MS.map((delayMs) => ({ action: 'backoff', delayMs })));
      expect(classifyFailure(outcome, BACKOFF_MS.length, true)).toEqual({ action: 'fail' });
    }
  });

  it('fails at once on other 4xx, a plain 403 included', () => {
    for (const status of [400, 403, 404, 413]) expect(classifyFailure({ status, body: 'nope' }, 0, true)).toEqual({ action: 'fail' });
  });

  it('pauses while offline instead of spending retries', () => {
    expect(classifyFailure({ code: 'network' }, 3, false)).toEqual({ action: 'pause' });
  });

  it('never retries a cancel', () => {
    expect(classifyFailure({ code: 'cancelled' }, 0, false)).toEqual({ action: 'fail' });
  });
});
