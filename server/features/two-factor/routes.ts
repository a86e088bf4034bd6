import { Hono } from 'hono';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  disableTwoFactorRequestSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  totpConfirmRequestSchema,
} from '../../../contract/two-factor';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError, notFound } from '../../errors';
import { clientAddress, jsonBody, ok } from '../../http';
import { adminOf, requireAdmin } from '../auth/middleware';
import type { LoginRateLimiter } from '../auth/login-rate-limit';
import { verifyAdminPassword } from '../auth/admins';
import { registerPasskey, registrationOptions, removePasskey, renamePasskey } from './passkeys';
import { replaceRecoveryCodes } from './recovery-codes';
import { relyingPartyOf } from './relying-party';
import { beginTotp, clearSecondFactors, confirmTotp, ensureSecondFactorRow, spendCode, twoFactorStatus } from './second-factors';

/** `/api/admin/two-factor/…`: the signed-in admin's second factors (status, TOTP, recovery codes, passkeys). */
export function twoFactorRoutes(deps: AppDeps, limiter: LoginRateLimiter) {
  const app = new Hono<AppEnv>();
  app.use('*', requireAdmin);
  const adminIdOf = (c: { get(key: 'principal'): AppEnv['Variables']['principal'] }) => adminOf(c.get('principal')).adminId;

  app.get('/', async (c) => ok(c, await twoFactorStatus(deps.db, adminIdOf(c))));

  app.post('/totp/setup', async (c) => {
    const { adminId, username } = adminOf(c.get('principal'));
    const setup = await beginTotp(deps.db, deps.secrets, adminId, username, deps.now());
    if (!setup) throw new ApiError(409, 'totp_already_enabled');
    return ok(c, setup);
  });

  app.post('/totp/confirm', jsonBody(totpConfirmRequestSchema), async (c) => {
    const enrolled = await confirmTotp(deps.db, deps.secrets, adminIdOf(c), c.req.valid('json').code, deps.now());
    if (!enrolled) throw new ApiError(400, 'second_factor_wrong', {}, { field: 'code' });
    return ok(c, enrolled, 'totp_enabled');
  });

  app.post('/recovery-codes', async (c) => {
    const adminId = adminIdOf(c);
    if (!(await twoFactorStatus(deps.db, adminId)).enabled) throw new ApiError(409, 'two_factor_not_enabled');
    return ok(c, { recoveryCodes: await replaceRecoveryCodes(deps.db, deps.secrets, adminId, deps.now()) }, 'recovery_codes_replaced');
  });

  app.post('/passkeys/options', async (c) => {
    const { adminId, username } = adminOf(c.get('principal'));
    await ensureSecondFactorRow(deps.db, adminId, deps.now());
    return ok(c, await registrationOptions(deps.db, { id: adminId, username }, relyingPartyOf(c, deps), deps.now()));
  });

  app.post('/passkeys', jsonBody(passkeyRegisterRequestSchema), async (c) => {
    const adminId = adminIdOf(c);
    const { name, credential } = c.req.valid('json');
    const wasEnabled = (await twoFactorStatus(deps.db, adminId)).enabled;
    const now = deps.now();
    if (!(await registerPasskey(deps.db, adminId, name, credential as unknown as RegistrationResponseJSON, relyingPartyOf(c, deps), now))) {
      throw new ApiError(400, 'passkey_refused', {}, { field: 'credential' });
    }
    const recoveryCodes = wasEnabled ? null : await replaceRecoveryCodes(deps.db, deps.secrets, adminId, now);
    return ok(c, { recoveryCodes }, 'passkey_added', 201);
  });

  app.patch('/passkeys/:id', jsonBody(passkeyRenameRequestSchema), async (c) => {
    if (!(await renamePasskey(deps.db, adminIdOf(c), c.req.param('id'), c.req.valid('json').name))) throw notFound('passkey_not_found');
    return ok(c, null, 'passkey_renamed');
  });

  app.delete('/passkeys/:id', async (c) => {
    const adminId = adminIdOf(c);
    const status = await twoFactorStatus(deps.db, adminId);
    const id = c.req.param('id');
    if (!status.passkeys.some((passkey) => passkey.id === id)) throw notFound('passkey_not_found');
    // Removing the last factor would turn 2FA off without the password and a code that turning it off asks for.
    if (!status.totp && status.passkeys.length === 1) throw new ApiError(409, 'last_second_factor');
    await removePasskey(deps.db, adminId, id);
    return ok(c, null, 'passkey_removed');
  });

  app.post('/disable', jsonBody(disableTwoFactorRequestSchema), async (c) => {
    const { adminId, username } = adminOf(c.get('principal'));
    const { password, code } = c.req.valid('json');
    // A stolen session must not get unlimited guesses at the password and a code: the login's limit counts these.
    const limitKey = `${clientAddress(c, deps)}|${username.toLowerCase()}`;
    const minutes = await limiter.attempt(limitKey);
    if (minutes > 0) throw new ApiError(429, 'too_many_attempts', { minutes }, { retryAfterMinutes: minutes });
    if (!(await twoFactorStatus(deps.db, adminId)).enabled) throw new ApiError(409, 'two_factor_not_enabled');
    const admin = await deps.db.selectFrom('admins').select(['id', 'password_hash']).where('id', '=', adminId).executeTakeFirstOrThrow();
    if (!(await verifyAdminPassword(deps.db, admin, password, deps.now()))) {
      throw new ApiError(401, 'current_password_wrong', {}, { field: 'password' });
    }
    if (!(await spendCode(deps.db, deps.secrets, adminId, code, deps.now()))) {
      throw new ApiError(401, 'second_factor_wrong', {}, { field: 'code' });
    }
    await limiter.succeed(limitKey);
    await clearSecondFactors(deps.db, adminId);
    return ok(c, null, 'two_factor_disabled');
  });

  return app;
}
