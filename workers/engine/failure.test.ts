import { describe, expect, it } from 'vitest';
import { classifyFailure } from './retry';
import { TransferFailure, toTransferError } from './failure';

describe('TransferFailure', () => {
  it('is an Error with a stack that carries the transfer error’s fields, and only those it was given', () => {
    const failure = new TransferFailure({ code: 'part_failed', part: 3, status: 503 });
    expect(failure).toBeInstanceOf(Error);
    expect(failure.stack).toContain('TransferFailure');
    expect(failure).toMatchObject({ code: 'part_failed', part: 3, status: 503, message: 'part_failed' });
    expect('serverMessage' in failure || 'data' in failure).toBe(false);
    expect(classifyFailure({ status: failure.status }, 0, true)).toEqual({ action: 'backoff', delayMs: 0 });
  });

  it('leaves the worker as the plain object; anything else as the fallback code', () => {
    const plain = toTransferError(new TransferFailure({ code: 'too_large', status: 413, serverMessage: 'Too big', data: { max: 1 } }));
    expect(plain).toEqual({ code: 'too_large', status: 413, serverMessage: 'Too big', data: { max: 1 } });
    expect(plain).not.toBeInstanceOf(Error);
    expect(structuredClone(plain)).toEqual(plain);
    expect(toTransferError({ code: 'network' })).toEqual({ code: 'network' });
    expect(toTransferError(new TypeError('bug'))).toEqual({ code: 'unknown' });
    expect(toTransferError(undefined, 'network')).toEqual({ code: 'network' });
  });
});
