import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { adminCheckResponseSchema, loginResponseSchema } from '../../../contract/auth';
import {
  enrolledSchema,
  recoveryCodesSchema,
  secondStepRequiredSchema,
  totpSetupSchema,
  twoFactorStatusSchema,
} from '../../../contract/two-factor';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectError, expectOk, MINUTE, useTestApp, type TestApp } from '../../../tests/fixtures/test-app';

const STEP_MS = 30_000;

/** What the admin's authenticator app shows at the app's current time (plus `offsetMs`). */
const codeAt = (t: TestApp, secret: string, offsetMs = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t.clock.now().getTime() + offsetMs });

/** Sets up TOTP through the API as the admin; answers the secret and the recovery codes shown. */
async function enrolTotp(t: TestApp, token: string) {
  const setup = await expectOk(await t.request('/api/admin/two-factor/totp/setup', { method: 'POST', token }), totpSetupSchema);
  const enrolled = await expectOk(
    await t.request('/api/admin/two-factor/totp/confirm', { json: { code: codeAt(t, setup.secret) }, token }),
    enrolledSchema,
  );
  // The confirming code's step is used: the next code an app shows comes 30 s later.
  t.clock.advance(STEP_MS);
  return { secret: setup.secret, uri: setup.uri, recoveryCodes: enrolled.recoveryCodes ?? [] };
}

const passwordStep = async (t: TestApp, password = ADMIN_PASSWORD, ip?: string) =>
  t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password }, ...(ip !== undefined && { ip }) });

async function pendingToken(t: TestApp, ip?: string) {
  return (await expectOk(await passwordStep(t, ADMIN_PASSWORD, ip), secondStepRequiredSchema)).secondStep.pendingToken;
}

const secondStep = (t: TestApp, pending: string, code: string, ip?: string) =>
  t.request('/api/admin/login/second-step', { json: { pendingToken: pending, code }, ...(ip !== undefined && { ip }) });

describe('TOTP enrolment', () => {
  const t = useTestApp({ perTest: true });

  it('shows a secret and its otpauth URI, turns on with a first code, and answers 10 recovery codes once', async () => {
    const before = await expectOk(await t.request('/api/admin/two-factor', { token: t.token }), twoFactorStatusSchema);
    expect(before).toEqual({ enabled: false, totp: false, recoveryCodesLeft: 0, passkeys: [] });

    const setup = await expectOk(await t.request('/api/admin/two-factor/totp/setup', { method: 'POST', token: t.token }), totpSetupSchema);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toBe(`otpauth://totp/Clipstash:${ADMIN_USERNAME}?issuer=Clipstash&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`);
    // Not on until confirmed: the password alone still logs in.
    await expectOk(await passwordStep(t), loginResponseSchema);

    const wrong = await expectError(await t.request('/api/admin/two-factor/totp/confirm', { json: { code: '000000' }, token: t.token }), 400);
    expect(wrong.data.field).toBe('code');

    const enrolled = await expectOk(
      await t.request('/api/admin/two-factor/totp/confirm', { json: { code: codeAt(t, setup.secret) }, token: t.token }),
      enrolledSchema,
    );
    expect(enrolled.recoveryCodes).toHaveLength(10);
    expect(new Set(enrolled.recoveryCodes).size).toBe(10);
    for (const code of enrolled.recoveryCodes ?? []) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const after = await expectOk(await t.request('/api/admin/two-factor', { token: t.token }), twoFactorStatusSchema);
    expect(after).toEqual({ enabled: true, totp: true, recoveryCodesLeft: 10, passkeys: [] });
    await expectError(await t.request('/api/admin/two-factor/totp/setup', { method: 'POST', token: t.token }), 409);

    // Neither the secret nor a recovery code is stored as it was shown.
    const stored = JSON.stringify([
      await t.db.selectFrom('admin_second_factors').selectAll().execute(),
      await t.db.selectFrom('admin_recovery_codes').selectAll().execute(),
    ]);
    expect(stored).not.toContain(setup.secret);
    for (const code of enrolled.recoveryCodes ?? []) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
  });

  it('regenerating recovery codes replaces the old ones', async () => {
    const { recoveryCodes } = await enrolTotp(t, t.token);
    const fresh = await expectOk(await t.request('/api/admin/two-factor/recovery-codes', { method: 'POST', token: t.token }), recoveryCodesSchema);
    expect(fresh.recoveryCodes).toHaveLength(10);
    expect(fresh.recoveryCodes.some((code) => recoveryCodes.includes(code))).toBe(false);
    await expectError(await secondStep(t, await pendingToken(t), recoveryCodes[0] ?? ''), 401);
    await expectOk(await secondStep(t, await pendingToken(t), fresh.recoveryCodes[0] ?? ''), loginResponseSchema);
  });
});

describe('login with a second factor', () => {
  const t = useTestApp({ perTest: true });

  it('the password step answers a pending token, not a session; a code exchanges it for a session', async () => {
    const { secret } = await enrolTotp(t, t.token);
    const answer = await expectOk(await passwordStep(t), secondStepRequiredSchema);
    expect(answer.secondStep.methods).toEqual(['totp', 'recovery']);
    expect(answer.secondStep.expiresAt).toBe(new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString());
    expect(answer).not.toHaveProperty('token');
    await expectError(await t.request('/api/admin/check', { token: answer.secondStep.pendingToken }), 401);

    const session = await expectOk(await secondStep(t, answer.secondStep.pendingToken, codeAt(t, secret)), loginResponseSchema);
    await expectOk(await t.request('/api/admin/check', { token: session.token }), adminCheckResponseSchema);
    // A pending token makes one session.
    await expectError(await secondStep(t, answer.secondStep.pendingToken, codeAt(t, secret, STEP_MS)), 401);
  });

  it('refuses a wrong code, and the same login still takes the right one', async () => {
    const { secret } = await enrolTotp(t, t.token);
    const pending = await pendingToken(t);
    const wrong = await expectError(await secondStep(t, pending, codeAt(t, secret, 10 * STEP_MS)), 401);
    expect(wrong.message).toBe('Wrong or already used code');
    expect(wrong.data.field).toBe('code');
    await expectOk(await secondStep(t, pending, codeAt(t, secret)), loginResponseSchema);
  });

  it('refuses a code used once, within its window, and takes the next one', async () => {
    const { secret } = await enrolTotp(t, t.token);
    // The code that confirmed the enrolment is spent.
    await expectError(await secondStep(t, await pendingToken(t), codeAt(t, secret, -STEP_MS)), 401);
    const code = codeAt(t, secret);
    await expectOk(await secondStep(t, await pendingToken(t), code), loginResponseSchema);
    t.clock.advance(10_000);
    await expectError(await secondStep(t, await pendingToken(t), code), 401);
    // An earlier step's code, still in the window, is refused too: steps only move forward.
    await expectError(await secondStep(t, await pendingToken(t), codeAt(t, secret, -STEP_MS)), 401);
    t.clock.advance(STEP_MS);
    await expectOk(await secondStep(t, await pendingToken(t), codeAt(t, secret)), loginResponseSchema);
  });

  it('takes a recovery code once, typed in any case and with spaces', async () => {
    const { recoveryCodes } = await enrolTotp(t, t.token);
    const [first = '', second = ''] = recoveryCodes;
    await expectOk(await secondStep(t, await pendingToken(t), ` ${first.toUpperCase().replace('-', ' ')} `), loginResponseSchema);
    await expectError(await secondStep(t, await pendingToken(t), first), 401);
    const status = await expectOk(await t.request('/api/admin/two-factor', { token: t.token }), twoFactorStatusSchema);
    expect(status.recoveryCodesLeft).toBe(9);
    await expectOk(await secondStep(t, await pendingToken(t), second), loginResponseSchema);
  });

  it('refuses a pending token after 5 minutes', async () => {
    const { secret } = await enrolTotp(t, t.token);
    const pending = await pendingToken(t);
    t.clock.advance(5 * MINUTE);
    const late = await expectError(await secondStep(t, pending, codeAt(t, secret)), 401);
    expect(late.data.field).toBe('pendingToken');
  });

  it('refuses a passkey assertion it never asked for', async () => {
    await enrolTotp(t, t.token);
    const pending = await pendingToken(t);
    const credential = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' }, clientExtensionResults: {} };
    await expectError(await t.request('/api/admin/login/passkey', { json: { pendingToken: pending, credential } }), 401);
  });

  it('counts the password and the second step against one limit, cleared by a whole login', async () => {
    const { secret } = await enrolTotp(t, t.token);
    const ip = '198.51.100.40';
    for (let i = 0; i < 5; i++) await expectError(await passwordStep(t, `wrong-${i}`, ip), 401);
    const pending = await pendingToken(t, ip);
    for (let i = 0; i < 4; i++) await expectError(await secondStep(t, pending, '12345x'), 401);
    // Ten tries in all: even the right code is refused now, and so is the password.
    const blocked = await expectError(await secondStep(t, pending, codeAt(t, secret)), 429);
    expect(blocked.data.retryAfterMinutes).toBe(15);
    await expectError(await passwordStep(t, ADMIN_PASSWORD, ip), 429);

    t.clock.advance(15 * MINUTE);
    const other = '198.51.100.41';
    for (let i = 0; i < 8; i++) await expectError(await passwordStep(t, `wrong-${i}`, other), 401);
    await expectOk(await secondStep(t, await pendingToken(t, other), codeAt(t, secret)), loginResponseSchema);
    // The whole login cleared the count: ten more tries are allowed (8 wrong passwords, the right one, a code).
    for (let i = 0; i < 8; i++) await expectError(await passwordStep(t, `wrong-${i}`, other), 401);
    t.clock.advance(STEP_MS);
    await expectOk(await secondStep(t, await pendingToken(t, other), codeAt(t, secret)), loginResponseSchema);
    // Two dozen scrypt checks of a password: seconds on a busy machine.
  }, 60_000);
});

describe('WebDAV with the admin password', () => {
  const t = useTestApp({ perTest: true });
  const basic = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64')}`;
  const propfind = (ip: string) => t.request('/dav/', { method: 'PROPFIND', headers: { authorization: basic, depth: '0' }, ip });

  it('is refused once the admin has a second factor, as a wrong password is; API keys are unchanged', async () => {
    expect((await propfind('198.51.100.60')).status).toBe(207);
    await enrolTotp(t, t.token);
    expect((await propfind('198.51.100.61')).status).toBe(401);
    const { key } = await t.createKey(t.token, { mount_permission: true });
    const withKey = await t.request('/dav/', { method: 'PROPFIND', headers: { authorization: `Basic ${Buffer.from(`${key}:${key}`).toString('base64')}`, depth: '0' } });
    expect(withKey.status).toBe(207);
  });
});

describe('turning two-factor sign-in off', () => {
  const t = useTestApp({ perTest: true });

  it('needs the password and a code, then the password alone logs in', async () => {
    const { secret } = await enrolTotp(t, t.token);
    const disable = (json: object) => t.request('/api/admin/two-factor/disable', { json, token: t.token });
    const badPassword = await expectError(await disable({ password: 'not the password', code: codeAt(t, secret) }), 401);
    expect(badPassword.data.field).toBe('password');
    const badCode = await expectError(await disable({ password: ADMIN_PASSWORD, code: '000000' }), 401);
    expect(badCode.data.field).toBe('code');
    expect((await expectError(await disable({ password: ADMIN_PASSWORD }), 400)).data.field).toBe('code');
    // Still on, and the session that asked is still good.
    expect((await expectOk(await t.request('/api/admin/two-factor', { token: t.token }), twoFactorStatusSchema)).enabled).toBe(true);

    await expectOk(await disable({ password: ADMIN_PASSWORD, code: codeAt(t, secret) }), v.null());
    expect(await expectOk(await t.request('/api/admin/two-factor', { token: t.token }), twoFactorStatusSchema)).toEqual({
      enabled: false,
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: [],
    });
    await expectOk(await passwordStep(t), loginResponseSchema);
  });
});

describe('npm run admin -- reset-2fa', () => {
  const t = useTestApp({ perTest: true });

  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/tools/admin.ts', ...args], {
      env: {
        ...process.env,
        DATA_DIR: t.dataDir,
        ADMIN_USERNAME,
        ...(t.deps.config.databaseUrl && { DATABASE_URL: t.deps.config.databaseUrl, SHARED_DATA_DIR: '1' }),
      },
    });

  it('clears the admin\'s second factor on the configured database: the password alone logs in', async () => {
    await enrolTotp(t, t.token);
    await expectOk(await passwordStep(t), secondStepRequiredSchema);
    const { stdout } = await run(['reset-2fa']);
    expect(stdout).toContain(`Two-factor sign-in of ${ADMIN_USERNAME} is off`);
    await expectOk(await passwordStep(t), loginResponseSchema);
    expect(await t.db.selectFrom('admin_recovery_codes').selectAll().execute()).toEqual([]);
  });

  it('refuses an unknown command or admin with its usage, and changes nothing', async () => {
    await enrolTotp(t, t.token);
    await expect(run(['reset-everything'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run admin -- reset-2fa') });
    await expect(run(['reset-2fa', '--username', 'nobody'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no admin named nobody') });
    await expectOk(await passwordStep(t), secondStepRequiredSchema);
  });
});
