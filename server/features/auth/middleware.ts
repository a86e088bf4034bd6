import { createMiddleware } from 'hono/factory';
import type { Permission } from '../../../contract/auth';
import type { AppDeps, AppEnv, Principal } from '../../context';
import { ApiError } from '../../errors';
import { withAccess } from '../../openapi/annotations';
import { apiKeyPrincipal, resolveApiKey } from './api-keys';
import { resolveToken } from './sessions';

/**
 * Puts the caller's principal on the context. Refused credentials leave an anonymous principal and a
 * recorded problem, so public routes still work and protected ones answer 401 with the precise reason.
 */
export const resolvePrincipal = (deps: AppDeps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('principal', { kind: 'anonymous' });
    c.set('credentialProblem', undefined);
    const header = c.req.header('authorization') ?? '';
    const [scheme, ...rest] = header.trim().split(/\s+/);
    const secret = rest.join(' ');
    if (scheme?.toLowerCase() === 'bearer' && secret) {
      const admin = await resolveToken(deps.db, secret, deps.now());
      if (admin) c.set('principal', { kind: 'admin', ...admin });
      else c.set('credentialProblem', 'token_expired');
    } else if (scheme?.toLowerCase() === 'apikey' && secret) {
      const key = await resolveApiKey(deps, secret);
      if (key) c.set('principal', apiKeyPrincipal(key));
      else c.set('credentialProblem', 'api_key_invalid');
    }
    await next();
  });


function unauthenticated(problem: AppEnv['Variables']['credentialProblem']): ApiError {
  if (problem === 'token_expired') return new ApiError(401, 'token_expired', {}, {}, 'token_expired');
  if (problem === 'api_key_invalid') return new ApiError(401, 'api_key_invalid', {}, {}, 'api_key_invalid');
  return new ApiError(401, 'unauthorized');
}

/** Admin bearer token only; API keys get 403. */
export const requireAdmin = withAccess(
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get('principal');
    if (principal.kind === 'anonymous') throw unauthenticated(c.get('credentialProblem'));
    if (principal.kind !== 'admin') throw new ApiError(403, 'admin_only');
    await next();
  }),
  { kind: 'admin' },
);

/** An admin, or an API key holding the permission. */
export const requirePermission = (permission: Permission) => requireAnyPermission(permission);

/** An admin, or an API key holding at least one of the permissions (the route answers what each one allows). */
export const requireAnyPermission = (...permissions: [Permission, ...Permission[]]) =>
  withAccess(
    createMiddleware<AppEnv>(async (c, next) => {
      const principal = c.get('principal');
      if (principal.kind === 'anonymous') throw unauthenticated(c.get('credentialProblem'));
      if (principal.kind === 'apiKey' && !permissions.some((permission) => principal.permissions[permission])) {
        throw permissions.length === 1
          ? new ApiError(403, 'permission_required', { permission: permissions[0] })
          : new ApiError(403, 'permission_required_any', { permissions: permissions.join(', ') });
      }
      await next();
    }),
    { kind: 'permission', permissions },
  );

/** Any valid API key (the key's own test route). */
export const requireApiKey = withAccess(
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get('principal');
    if (principal.kind !== 'apiKey') throw unauthenticated(c.get('credentialProblem') ?? 'api_key_invalid');
    await next();
  }),
  { kind: 'apiKey' },
);

export function adminOf(principal: Principal) {
  if (principal.kind !== 'admin') throw new Error('requireAdmin must run first');
  return principal;
}

export function apiKeyOf(principal: Principal) {
  if (principal.kind !== 'apiKey') throw new Error('requireApiKey must run first');
  return principal;
}
