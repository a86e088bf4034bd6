import type { TransferErrorCode } from '../../contract/transfer';

/** Waits before the 1st, 2nd, 3rd and 4th try of a request that failed for a passing reason. */
export const BACKOFF_MS = [0, 1000, 3000, 5000] as const;

export type RetryDecision =
  | { action: 'resign' }
  | { action: 'backoff'; delayMs: number }
  | { action: 'pause' }
  | { action: 'fail' };

export interface AttemptOutcome {
  /** HTTP status when an answer came. */
  status?: number;
  /** Why no answer came. */
  code?: TransferErrorCode;
  /** The answer's body, for telling an expired signature from other refusals. */
  body?: string;
}

const EXPIRED = /request has expired|expired token|signature.*expired|url.*expired|ExpiredToken|AccessDenied.*expir/i;

/**
 * What to do after a part request failed: sign again when its URL expired; wait and retry on 429, 5xx and
 * network errors (0, 1, 3, 5 s, then give up); pause while the browser is offline; fail on any other 4xx.
 * `retries` is how many retries were already made for this request.
 */
export function classifyFailure(outcome: AttemptOutcome, retries: number, online: boolean): RetryDecision {
  if (outcome.code === 'cancelled') return { action: 'fail' };
  if (!online) return { action: 'pause' };
  if (outcome.status === 403 && EXPIRED.test(outcome.body ?? '')) return { action: 'resign' };
  const passing =
    outcome.code === 'network' ||
    outcome.code === 'timeout' ||
    outcome.status === 429 ||
    (outcome.status !== undefined && outcome.status >= 500);
  if (!passing) return { action: 'fail' };
  const delayMs = BACKOFF_MS[retries];
  return delayMs === undefined ? { action: 'fail' } : { action: 'backoff', delayMs };
}
