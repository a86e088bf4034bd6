import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { changePasswordRequestSchema, loginRequestSchema } from './auth';
import { isSuccessCode } from './envelope';

describe('loginRequestSchema', () => {
  it('trims the username but not the password', () => {
    expect(v.parse(loginRequestSchema, { username: ' admin ', password: ' pw ' })).toEqual({ username: 'admin', password: ' pw ' });
  });
  it.each([{ username: '', password: 'x' }, { username: 'a', password: '' }, { username: 'a' }, {}])('refuses %j', (input) => {
    expect(v.is(loginRequestSchema, input)).toBe(false);
  });
});

describe('changePasswordRequestSchema', () => {
  it('needs a new username or a new password', () => {
    const result = v.safeParse(changePasswordRequestSchema, { currentPassword: 'old' });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe('new_username_or_password_required');
  });
  it.each([{ newPassword: 'long enough' }, { newUsername: 'root' }, { newPassword: 'long enough', newUsername: 'root' }])(
    'accepts %j',
    (change) => {
      expect(v.is(changePasswordRequestSchema, { currentPassword: 'old', ...change })).toBe(true);
    },
  );
  it('refuses a new password under 8 characters', () => {
    expect(v.is(changePasswordRequestSchema, { currentPassword: 'old', newPassword: '1234567' })).toBe(false);
  });
});

describe('isSuccessCode', () => {
  it.each([
    [200, true],
    [201, true],
    [202, true],
    [204, false],
    [400, false],
    [401, false],
  ])('%i → %s', (code, expected) => {
    expect(isSuccessCode(code)).toBe(expected);
  });
});
