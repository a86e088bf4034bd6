import { describe, expect, it } from 'vitest';
import { apiFailure } from './api';

describe('apiFailure', () => {
  it('names what went wrong from the status and the server data', () => {
    expect(apiFailure(413, { message: 'too big', data: { fileSize: 10, maxUploadSize: 5 } }, 'presign_failed')).toMatchObject({
      code: 'too_large',
      status: 413,
      serverMessage: 'too big',
    });
    expect(apiFailure(413, { data: { fileSize: 10, remaining: 2, total: 8 } }, 'presign_failed').code).toBe('quota_exceeded');
    expect(apiFailure(409, undefined, 'commit_failed').code).toBe('slug_taken');
    expect(apiFailure(403, undefined, 'presign_failed').code).toBe('storage_forbidden');
    expect(apiFailure(401, undefined, 'presign_failed').code).toBe('unauthorized');
    expect(apiFailure(500, { message: '' }, 'commit_failed')).toEqual({ code: 'commit_failed', status: 500, data: {} });
  });
});
