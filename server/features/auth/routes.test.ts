import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { adminCheckResponseSchema, apiKeyTestResponseSchema, loginResponseSchema } from '../../../contract/auth';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, expectError, expectOk, HOUR, MINUTE, useTestApp } from '../../../tests/fixtures/test-app';
import { hashPassword } from '../../security/passwords';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('POST /api/admin/login', () => {
  const t = useTestApp({ login: false });

  it('answers username, token and expiry 24 h ahead; the token works on check and admin-token', async () => {
    const res = await t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    const data = await expectOk(res, loginResponseSchema);
    expect(data.username).toBe(ADMIN_USERNAME);
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(data.expiresAt).toBe(new Date(t.clock.now().getTime() + 24 * HOUR).toISOString());

    for (const path of ['/api/admin/check', '/api/test/admin-token']) {
      const check = await expectOk(await t.request(path, { token: data.token }), adminCheckResponseSchema);
      expect(check).toEqual({ username: ADMIN_USERNAME });
    }
  });

  it('stores only the hash of the token', async () => {
    const token = await t.login();
    const rows = await t.db.selectFrom('admin_tokens').selectAll().execute();
    expect(rows.some((row) => row.token_hash === sha256(token))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('issues a different token on every login', async () => {
    const [a, b] = [await t.login(), await t.login()];
    expect(a).not.toBe(b);
  });

  it('refuses a wrong password with 401', async () => {
    const res = await t.request('/api/admin/login', {
      json: { username: ADMIN_USERNAME, password: 'wrong password' },
      ip: '198.51.100.1',
    });
    const body = await expectError(res, 401);
    expect(body.data.error).toBe('unauthorized');
    expect(body.message).toBe('Wrong username or password');
    expect(body.data).not.toHaveProperty('token');
  });

  it('refuses an unknown username with the same 401', async () => {
    const res = await t.request('/api/admin/login', {
      json: { username: 'nobody', password: ADMIN_PASSWORD },
      ip: '198.51.100.2',
    });
    const body = await expectError(res, 401);
    expect(body.message).toBe('Wrong username or password');
  });

  it('is case-sensitive about the password', async () => {
    const res = await t.request('/api/admin/login', {
      json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD.toUpperCase() },
      ip: '198.51.100.3',
    });
    await expectError(res, 401);
  });

  it.each([
    ['empty username', { username: '', password: ADMIN_PASSWORD }, 'username'],
    ['blank username', { username: '   ', password: ADMIN_PASSWORD }, 'username'],
    ['missing username', { password: ADMIN_PASSWORD }, 'username'],
    ['empty password', { username: ADMIN_USERNAME, password: '' }, 'password'],
    ['non-string password', { username: ADMIN_USERNAME, password: 12345678 }, 'password'],
  ])('answers 400 naming the field for %s', async (_name, json, field) => {
    const body = await expectError(await t.request('/api/admin/login', { json }), 400);
    expect(body.data.error).toBe('validation');
    expect(body.data.field).toBe(field);
  });

  it('accepts the username with surrounding spaces', async () => {
    const res = await t.request('/api/admin/login', { json: { username: ` ${ADMIN_USERNAME} `, password: ADMIN_PASSWORD } });
    expect((await expectOk(res, loginResponseSchema)).username).toBe(ADMIN_USERNAME);
  });

  it('needs credentials for check and admin-token', async () => {
    for (const path of ['/api/admin/check', '/api/test/admin-token']) {
      const body = await expectError(await t.request(path), 401);
      expect(body.data.error).toBe('unauthorized');
    }
  });

  it('refuses a made-up bearer token', async () => {
    const body = await expectError(await t.request('/api/admin/check', { token: 'not-a-real-token' }), 401);
    expect(body.data.error).toBe('token_expired');
  });

  it('refuses an API key on check and admin-token with 403', async () => {
    const key = await t.createKey(await t.login(), { text_permission: true });
    for (const path of ['/api/admin/check', '/api/test/admin-token']) {
      const body = await expectError(await t.request(path, { apiKey: key.key }), 403);
      expect(body.data.error).toBe('forbidden');
    }
  });

  it('does not take an admin token as an API key', async () => {
    const token = await t.login();
    const body = await expectError(await t.request('/api/test/api-key', { token }), 401);
    expect(body.data.error).toBe('api_key_invalid');
    // The same token still works where it belongs.
    await expectOk(await t.request('/api/test/api-key', { apiKey: (await t.createKey(token)).key }), apiKeyTestResponseSchema);
  });
});

describe('token lifetime', () => {
  const t = useTestApp({ login: false, perTest: true });

  it('is valid until 24 h have passed, then answers 401 token_expired', async () => {
    const token = await t.login();
    t.clock.advance(24 * HOUR - 1000);
    await expectOk(await t.request('/api/admin/check', { token }), adminCheckResponseSchema);
    t.clock.advance(1001);
    const body = await expectError(await t.request('/api/admin/check', { token }), 401);
    expect(body.data.error).toBe('token_expired');
    expect(body.message).toBe('Admin session expired, please log in again');
    await expectError(await t.request('/api/test/admin-token', { token }), 401);
    await expectError(await t.request('/api/admin/api-keys', { token }), 401);
  });

  it('does not break public routes when an expired token is sent', async () => {
    const token = await t.login();
    t.clock.advance(25 * HOUR);
    const res = await t.request('/api/health', { token });
    expect(res.status).toBe(200);
  });

  it('follows ADMIN_TOKEN_TTL_HOURS', async () => {
    const short = await createTestApp({ env: { ADMIN_TOKEN_TTL_HOURS: '2' } });
    try {
      const { token, expiresAt } = await short.loginResponse();
      expect(expiresAt).toBe(new Date(short.clock.now().getTime() + 2 * HOUR).toISOString());
      short.clock.advance(2 * HOUR - 1);
      await expectOk(await short.request('/api/admin/check', { token }), adminCheckResponseSchema);
      short.clock.advance(1);
      await expectError(await short.request('/api/admin/check', { token }), 401);
    } finally {
      await short.close();
    }
  });

  it('sweeps expired tokens from the database at the next login', async () => {
    const old = await t.login();
    t.clock.advance(25 * HOUR);
    const fresh = await t.login();
    const hashes = (await t.db.selectFrom('admin_tokens').select('token_hash').execute()).map((r) => r.token_hash);
    expect(hashes).toEqual([sha256(fresh)]);
    expect(hashes).not.toContain(sha256(old));
  });
});

describe('POST /api/admin/logout', () => {
  const t = useTestApp({ login: false });

  it('revokes the token it was called with, and only that one', async () => {
    const [token, other] = [await t.login(), await t.login()];
    const res = await t.request('/api/admin/logout', { method: 'POST', token });
    expect(await expectOk(res, v.null())).toBeNull();
    const check = await expectError(await t.request('/api/admin/check', { token }), 401);
    expect(check.data.error).toBe('token_expired');
    await expectOk(await t.request('/api/admin/check', { token: other }), adminCheckResponseSchema);
    expect(await t.db.selectFrom('admin_tokens').select('token_hash').where('token_hash', '=', sha256(token)).execute()).toEqual([]);
  });

  it('answers a success envelope with null data', async () => {
    const token = await t.login();
    const res = await t.request('/api/admin/logout', { method: 'POST', token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 200, message: 'Logged out', data: null, success: true });
  });

  it('needs a valid token', async () => {
    await expectError(await t.request('/api/admin/logout', { method: 'POST' }), 401);
    const token = await t.login();
    await t.request('/api/admin/logout', { method: 'POST', token });
    await expectError(await t.request('/api/admin/logout', { method: 'POST', token }), 401);
  });
});

describe('login rate limit', () => {
  const t = useTestApp({ login: false, perTest: true });

  const attempt = (password: string, options: { ip?: string; username?: string } = {}) =>
    t.request('/api/admin/login', {
      json: { username: options.username ?? ADMIN_USERNAME, password },
      ...(options.ip !== undefined && { ip: options.ip }),
    });

  async function failTimes(n: number, options: { ip?: string; username?: string } = {}) {
    for (let i = 0; i < n; i++) await expectError(await attempt(`wrong-${i}`, options), 401);
  }

  it('answers 429 after 10 failures in 15 minutes, even for the right password, until the window passes', async () => {
    await failTimes(10);
    const blocked = await expectError(await attempt(ADMIN_PASSWORD), 429);
    expect(blocked.data.error).toBe('rate_limited');
    expect(blocked.data.retryAfterMinutes).toBe(15);
    expect(blocked.message).toBe('Too many failed logins, try again in 15 minutes');

    t.clock.advance(15 * MINUTE - 1000);
    const still = await expectError(await attempt(ADMIN_PASSWORD), 429);
    expect(still.data.retryAfterMinutes).toBe(1);

    t.clock.advance(1001);
    await expectOk(await attempt(ADMIN_PASSWORD), loginResponseSchema);
  });

  it('counts per IP and username', async () => {
    await failTimes(10, { ip: '192.0.2.1' });
    await expectError(await attempt(ADMIN_PASSWORD, { ip: '192.0.2.1' }), 429);
    // The username is matched without regard to case.
    await expectError(await attempt(ADMIN_PASSWORD, { ip: '192.0.2.1', username: 'ADMIN' }), 429);
    // Another address is not blocked.
    await expectOk(await attempt(ADMIN_PASSWORD, { ip: '192.0.2.2' }), loginResponseSchema);
    // Another username from the blocked address is not blocked either.
    await expectError(await attempt('whatever', { ip: '192.0.2.1', username: 'someone' }), 401);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, then counts per forwarded client', async () => {
    const forwardedFor = (value: string) => ({ headers: { 'x-forwarded-for': value } });
    const from = (password: string, value: string) =>
      t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password }, ...forwardedFor(value) });
    // Not trusted: a forged header does not get around the limit of the address the request really came from.
    for (let i = 0; i < 10; i++) await expectError(await from(`wrong-${i}`, `198.51.100.${i}`), 401);
    await expectError(await from(ADMIN_PASSWORD, '198.51.100.99'), 429);

    const behindProxy = await createTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const via = (password: string, value: string) =>
        behindProxy.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password }, ...forwardedFor(value) });
      // The proxy appends the address it saw: the last entry is the client, whatever the client wrote before it.
      for (let i = 0; i < 10; i++) await expectError(await via(`wrong-${i}`, `203.0.113.${i}, 192.0.2.7`), 401);
      await expectError(await via(ADMIN_PASSWORD, '192.0.2.7'), 429);
      // Everyone else behind the same proxy can still log in.
      await expectOk(await via(ADMIN_PASSWORD, '192.0.2.8'), loginResponseSchema);
    } finally {
      await behindProxy.close();
    }
  });

  it('uses a sliding window: old failures stop counting', async () => {
    await failTimes(5);
    t.clock.advance(10 * MINUTE);
    await failTimes(5);
    await expectError(await attempt(ADMIN_PASSWORD), 429);
    t.clock.advance(5 * MINUTE + 1000); // the first five are now older than 15 minutes
    await expectError(await attempt('wrong again'), 401); // allowed again: 6 failures in the window
    await failTimes(4); // 10 in the window
    await expectError(await attempt(ADMIN_PASSWORD), 429);
  });

  it('forgets the failures after a successful login', async () => {
    await failTimes(9);
    await expectOk(await attempt(ADMIN_PASSWORD), loginResponseSchema);
    await failTimes(9);
    await expectError(await attempt('tenth'), 401); // would be 429 had the first nine been kept
    await expectError(await attempt(ADMIN_PASSWORD), 429);
  });

  it('does not count blocked attempts as failures', async () => {
    await failTimes(10);
    t.clock.advance(10 * MINUTE);
    for (let i = 0; i < 3; i++) await expectError(await attempt('blocked'), 429);
    t.clock.advance(5 * MINUTE + 1000);
    await expectOk(await attempt(ADMIN_PASSWORD), loginResponseSchema);
  });

  it('cannot be bypassed by sending many guesses at once', async () => {
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => attempt(`parallel-${i}`)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });
});

describe('POST /api/admin/change-password', () => {
  const t = useTestApp({ perTest: true });

  const change = (json: unknown, bearer: string | null = t.token) =>
    t.request('/api/admin/change-password', { json, ...(bearer !== null && { token: bearer }) });

  it('refuses a wrong current password with 401 and keeps everything as it was', async () => {
    const body = await expectError(await change({ currentPassword: 'not it', newPassword: 'brand new password' }), 401);
    expect(body.data.field).toBe('currentPassword');
    expect(body.message).toBe('Current password verification failed');
    await expectOk(await t.request('/api/admin/check', { token: t.token }), adminCheckResponseSchema);
    await t.login(); // the old password still works
  });

  it('needs a new username or a new password (400)', async () => {
    const body = await expectError(await change({ currentPassword: ADMIN_PASSWORD }), 400);
    expect(body.data.error).toBe('validation');
    expect(body.data.issue).toBe('new_username_or_password_required');
  });

  it('refuses a new password equal to the current one (400)', async () => {
    const body = await expectError(await change({ currentPassword: ADMIN_PASSWORD, newPassword: ADMIN_PASSWORD }), 400);
    expect(body.data.field).toBe('newPassword');
    expect(body.data.issue).toBe('unchanged');
    await expectOk(await t.request('/api/admin/check', { token: t.token }), adminCheckResponseSchema);
  });

  it.each([
    ['a too short new password', { newPassword: 'short' }, 'newPassword', 'too_short'],
    ['an empty new username', { newUsername: '  ' }, 'newUsername', 'required'],
    ['a missing current password', { currentPassword: undefined, newPassword: 'long enough pw' }, 'currentPassword', undefined],
  ])('answers 400 for %s', async (_name, extra, field, issue) => {
    const body = await expectError(await change({ currentPassword: ADMIN_PASSWORD, ...extra }), 400);
    expect(body.data.field).toBe(field);
    if (issue) expect(body.data.issue).toBe(issue);
  });

  it('changes the password, revokes every token, and only the new password logs in', async () => {
    const second = await t.login();
    const res = await change({ currentPassword: ADMIN_PASSWORD, newPassword: 'a new secret phrase' });
    const data = await expectOk(res, adminCheckResponseSchema);
    expect(data.username).toBe(ADMIN_USERNAME);

    for (const old of [t.token, second]) {
      await expectError(await t.request('/api/admin/check', { token: old }), 401);
    }
    expect(await t.db.selectFrom('admin_tokens').select('token_hash').execute()).toEqual([]);
    await expectError(
      await t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } }),
      401,
    );
    const fresh = await t.login(ADMIN_USERNAME, 'a new secret phrase');
    await expectOk(await t.request('/api/admin/check', { token: fresh }), adminCheckResponseSchema);
  });

  it('stores the new password as a scrypt hash, never in plain text', async () => {
    await expectOk(await change({ currentPassword: ADMIN_PASSWORD, newPassword: 'a new secret phrase' }), adminCheckResponseSchema);
    const admin = await t.db.selectFrom('admins').selectAll().executeTakeFirstOrThrow();
    expect(admin.password_hash).toMatch(/^scrypt\$/);
    expect(admin.password_hash).not.toContain('a new secret phrase');
    expect(admin.updated_at).toBe(t.clock.now().toISOString());
  });

  it('renames the admin: tokens revoked, the new name logs in, the old one does not', async () => {
    t.clock.advance(MINUTE);
    const data = await expectOk(await change({ currentPassword: ADMIN_PASSWORD, newUsername: ' root ' }), adminCheckResponseSchema);
    expect(data.username).toBe('root');
    await expectError(await t.request('/api/admin/check', { token: t.token }), 401);
    await expectError(
      await t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } }),
      401,
    );
    const fresh = await t.login('root', ADMIN_PASSWORD);
    expect(await expectOk(await t.request('/api/admin/check', { token: fresh }), adminCheckResponseSchema)).toEqual({
      username: 'root',
    });
  });

  it('changes username and password together', async () => {
    await expectOk(
      await change({ currentPassword: ADMIN_PASSWORD, newUsername: 'boss', newPassword: 'another long one' }),
      adminCheckResponseSchema,
    );
    await t.login('boss', 'another long one');
  });

  it('answers 409 when the new username belongs to another admin', async () => {
    const at = t.clock.now().toISOString();
    await t.db
      .insertInto('admins')
      .values({ id: 'second', username: 'taken', password_hash: await hashPassword('irrelevant'), created_at: at, updated_at: at })
      .execute();
    const body = await expectError(await change({ currentPassword: ADMIN_PASSWORD, newUsername: 'taken' }), 409);
    expect(body.data.error).toBe('conflict');
    expect(body.data.field).toBe('newUsername');
    await expectOk(await t.request('/api/admin/check', { token: t.token }), adminCheckResponseSchema);
  });

  it('needs an admin: 401 anonymous, 403 for an API key', async () => {
    await expectError(await change({ currentPassword: ADMIN_PASSWORD, newPassword: 'whatever123' }, null), 401);
    const key = await t.createKey(t.token, { text_permission: true, file_permission: true, mount_permission: true });
    const res = await t.request('/api/admin/change-password', {
      apiKey: key.key,
      json: { currentPassword: ADMIN_PASSWORD, newPassword: 'whatever123' },
    });
    await expectError(res, 403);
    await t.login(); // unchanged
  });
});
