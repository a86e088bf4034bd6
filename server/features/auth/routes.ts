import { Hono, type Context } from 'hono';
import { changePasswordRequestSchema, loginRequestSchema } from '../../../contract/auth';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError } from '../../errors';
import { clientAddress, jsonBody, ok } from '../../http';
import { adminOf, apiKeyOf, requireAdmin, requireApiKey } from './middleware';
import { keepUncompressed } from '../../middleware/compression';
import type { LoginRateLimiter } from './login-rate-limit';
import { hashPassword, verifyPassword } from '../../security/passwords';
import { verifyAdminPassword } from './admins';
import { issueToken, revokeAllTokens, revokeToken } from './sessions';
import {
  secondStepCodeRequestSchema,
  secondStepPasskeyOptionsRequestSchema,
  secondStepPasskeyRequestSchema,
} from '../../../contract/two-factor';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { secondStepMethods, spendCode } from '../two-factor/second-factors';
import { authenticationOptions, verifyPasskeyAssertion } from '../two-factor/passkeys';
import { consumePendingLogin, issuePendingLogin, pendingLoginOf, setPendingChallenge, type PendingLogin } from '../two-factor/pending-logins';
import { relyingPartyOf } from '../two-factor/relying-party';

/**
 * `/api/admin/login` (and its second step, `/api/admin/login/second-step|passkey-options|passkey`),
 * `/api/admin/logout|check|change-password` and `/api/test/admin-token|api-key`.
 */
export function authRoutes(deps: AppDeps, limiter: LoginRateLimiter) {
  const app = new Hono<AppEnv>();

  /** Counts a try against the login's limit, or refuses it when the limit is reached. */
  const countAttempt = async (limitKey: string) => {
    const minutes = await limiter.attempt(limitKey);
    if (minutes > 0) throw new ApiError(429, 'too_many_attempts', { minutes }, { retryAfterMinutes: minutes });
  };

  const session = async (c: Context<AppEnv>, admin: { id: string; username: string }, limitKey: string) => {
    await limiter.succeed(limitKey);
    const { token, expiresAt } = await issueToken(deps.db, admin.id, deps.now(), deps.config.adminTokenTtlHours);
    return ok(c, { username: admin.username, token, expiresAt }, 'logged_in');
  };

  app.post('/admin/login', keepUncompressed, jsonBody(loginRequestSchema), async (c) => {
    const { username, password } = c.req.valid('json');
    const limitKey = `${clientAddress(c, deps)}|${username.toLowerCase()}`;
    // The attempt counts as a failure before the slow password check: otherwise guesses sent at once would all
    // pass the check before any of them is recorded. A success below clears it again.
    await countAttempt(limitKey);

    const admin = await deps.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
    const valid = await verifyAdminPassword(deps.db, admin, password, deps.now());
    if (!admin || !valid) throw new ApiError(401, 'invalid_credentials');
    const methods = await secondStepMethods(deps.db, admin.id);
    if (methods.length === 0) return session(c, admin, limitKey);
    // The count stays until the second step succeeds: both steps share the limit.
    const pending = await issuePendingLogin(deps.db, admin.id, limitKey, deps.now());
    return ok(c, { username: admin.username, secondStep: { ...pending, methods } }, 'second_step_required');
  });

  const pendingOf = async (pendingToken: string) => {
    const pending = await pendingLoginOf(deps.db, pendingToken, deps.now());
    if (!pending) throw new ApiError(401, 'second_step_expired', {}, { field: 'pendingToken' });
    return pending;
  };

  /** One pending login makes one session, even when two second steps land at once. */
  const finish = async (c: Context<AppEnv>, pending: PendingLogin) => {
    if (!(await consumePendingLogin(deps.db, pending))) throw new ApiError(401, 'second_step_expired', {}, { field: 'pendingToken' });
    return session(c, { id: pending.admin_id, username: pending.username }, pending.limit_key);
  };

  app.post('/admin/login/second-step', keepUncompressed, jsonBody(secondStepCodeRequestSchema), async (c) => {
    const { pendingToken, code } = c.req.valid('json');
    const pending = await pendingOf(pendingToken);
    await countAttempt(pending.limit_key);
    if (!(await spendCode(deps.db, deps.secrets, pending.admin_id, code, deps.now()))) {
      throw new ApiError(401, 'second_factor_wrong', {}, { field: 'code' });
    }
    return finish(c, pending);
  });

  app.post('/admin/login/passkey-options', jsonBody(secondStepPasskeyOptionsRequestSchema), async (c) => {
    const pending = await pendingOf(c.req.valid('json').pendingToken);
    const options = await authenticationOptions(deps.db, pending.admin_id, relyingPartyOf(c, deps));
    await setPendingChallenge(deps.db, pending, options.challenge);
    return ok(c, options);
  });

  app.post('/admin/login/passkey', keepUncompressed, jsonBody(secondStepPasskeyRequestSchema), async (c) => {
    const { pendingToken, credential } = c.req.valid('json');
    const pending = await pendingOf(pendingToken);
    await countAttempt(pending.limit_key);
    const assertion = credential as unknown as AuthenticationResponseJSON;
    // A challenge answers one assertion, right or wrong.
    await setPendingChallenge(deps.db, pending, null);
    const valid = pending.challenge !== null &&
      (await verifyPasskeyAssertion(deps.db, pending.admin_id, assertion, pending.challenge, relyingPartyOf(c, deps), deps.now()));
    if (!valid) throw new ApiError(401, 'passkey_refused', {}, { field: 'credential' });
    return finish(c, pending);
  });

  app.post('/admin/logout', requireAdmin, async (c) => {
    await revokeToken(deps.db, adminOf(c.get('principal')).tokenHash);
    return ok(c, null, 'logged_out');
  });

  const whoAmI = (c: Context<AppEnv>) => ok(c, { username: adminOf(c.get('principal')).username });
  app.get('/admin/check', requireAdmin, whoAmI);
  app.get('/test/admin-token', requireAdmin, whoAmI);

  app.post('/admin/change-password', requireAdmin, jsonBody(changePasswordRequestSchema), async (c) => {
    const { currentPassword, newPassword, newUsername } = c.req.valid('json');
    const { adminId } = adminOf(c.get('principal'));
    const admin = await deps.db.selectFrom('admins').selectAll().where('id', '=', adminId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(currentPassword, admin.password_hash))) {
      throw new ApiError(401, 'current_password_wrong', {}, { field: 'currentPassword' });
    }
    if (newPassword !== undefined && newPassword === currentPassword) {
      throw new ApiError(400, 'password_unchanged', {}, { field: 'newPassword', issue: 'unchanged' });
    }
    if (newUsername !== undefined && newUsername !== admin.username) {
      const taken = await deps.db.selectFrom('admins').select('id').where('username', '=', newUsername).executeTakeFirst();
      if (taken) throw new ApiError(409, 'username_taken', {}, { field: 'newUsername' });
    }
    const changes = {
      updated_at: deps.now().toISOString(),
      ...(newUsername !== undefined && { username: newUsername }),
      ...(newPassword !== undefined && { password_hash: await hashPassword(newPassword) }),
    };
    await deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('admins').set(changes).where('id', '=', adminId).execute();
      await revokeAllTokens(trx, adminId);
    });
    return ok(c, { username: changes.username ?? admin.username }, 'credentials_changed');
  });

  app.get('/test/api-key', requireApiKey, (c) => {
    const key = apiKeyOf(c.get('principal'));
    return ok(c, {
      name: key.name,
      basic_path: key.basicPath,
      permissions: key.permissions,
      key_info: { id: key.keyId, name: key.name, basic_path: key.basicPath, expires_at: key.expiresAt },
    });
  });

  return app;
}

