import { describe, expect, it } from 'vitest';
import { describeError, failureReasonOf } from './reason';

/** An error as Node, fetch or the AWS SDK shape them. */
const errnoError = (code: string, message: string) => Object.assign(new Error(message), { code });
const s3Error = (name: string, status: number) => Object.assign(new Error(`${name} said no`), { name, $metadata: { httpStatusCode: status } });

describe('failure reasons', () => {
  it('names the reason of system, network and S3 errors, through nested causes', () => {
    expect(failureReasonOf(errnoError('ENAMETOOLONG', "name too long, open '/srv/data/x'"))).toBe('name_too_long');
    expect(failureReasonOf(errnoError('EACCES', 'permission denied'))).toBe('permission_denied');
    expect(failureReasonOf(errnoError('ENOSPC', 'no space left on device'))).toBe('no_space');
    expect(failureReasonOf(s3Error('NoSuchBucket', 404))).toBe('bucket_missing');
    expect(failureReasonOf(s3Error('SignatureDoesNotMatch', 403))).toBe('bad_credentials');
    expect(failureReasonOf(s3Error('SomethingNew', 403))).toBe('access_denied');
    expect(failureReasonOf(new TypeError('fetch failed', { cause: errnoError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9') }))).toBe('unreachable');
    expect(failureReasonOf(errnoError('SSH_AUTH_FAILED', 'The server refused the username, password or key'))).toBe('bad_credentials');
    expect(failureReasonOf(errnoError('SSH_HOST_KEY_MISMATCH', 'not the pinned host key'))).toBe('host_key_mismatch');
    expect(failureReasonOf(new Error('odd'))).toBe('unknown');
    expect(failureReasonOf('not even an error')).toBe('unknown');
  });

  it('tells the log the whole story with signed URLs’ secrets cut out', () => {
    const url = 'https://bucket.example/k?X-Amz-Credential=AKIAEXAMPLE%2F20260101&X-Amz-Signature=deadbeef&sig=abc&exp=123';
    const text = describeError(new TypeError(`fetch ${url} failed`, { cause: errnoError('ECONNRESET', 'socket hang up') }));
    expect(text).toContain('https://bucket.example/k?X-Amz-Credential=…&X-Amz-Signature=…&sig=…&exp=…');
    expect(text).toContain('socket hang up');
    expect(text).not.toMatch(/AKIAEXAMPLE|deadbeef|abc/);
  });
});
