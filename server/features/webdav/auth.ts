import type { AppDeps, Principal } from '../../context';
import type { LoginRateLimiter } from '../auth/login-rate-limit';
import { apiKeyPrincipal } from '../auth/api-keys';
import { UNKNOWN_USER_HASH, verifyPassword } from '../../security/passwords';
import { sha256 } from '../../security/tokens';
import { resolveApiKey } from '../auth/api-keys';
import { DavError } from './errors';
import { hasSecondFactor } from '../two-factor/second-factors';

/** WebDAV clients send Basic credentials with every request: a verified admin login is remembered this long. */
const REMEMBER_MS = 10 * 60 * 1000;
const REMEMBERED_MAX = 1000;

/**
 * Who a WebDAV request comes from: Basic with the admin's name and password, or an API key with mount permission
 * as both user name and password. Failures answer 401 with the Basic challenge, so clients ask for credentials;
 * failed admin passwords count toward the login rate limit (429 once it is reached). An admin with a second factor
 * cannot sign in here with the password alone (WebDAV has no second step): they use an API key, as the login page does
 * not let a password alone in either; the answer is the same 401 as a wrong password's, so it confirms nothing.
 */
export class DavAuthenticator {
  /** sha256 of name, password and the stored hash → when it stops being trusted; a new password misses it. */
  private readonly remembered = new Map<string, { until: number; principal: Principal }>();

  constructor(
    private readonly deps: AppDeps,
    private readonly limiter: LoginRateLimiter,
  ) {}

  async principalOf(authorization: string | undefined, client: string): Promise<Principal> {
    const [scheme, encoded] = (authorization ?? '').trim().split(/\s+/);
    if (scheme?.toLowerCase() !== 'basic' || !encoded) throw new DavError(401);
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new DavError(401);
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (user === password) {
      const key = await resolveApiKey(this.deps, password);
      if (key) {
        if (key.mount_permission !== 1) throw new DavError(403);
        return apiKeyPrincipal(key);
      }
    }
    return this.admin(user, password, client);
  }

  private async admin(username: string, password: string, client: string): Promise<Principal> {
    const admin = await this.deps.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
    const memo = admin && sha256(`${username}\u0000${password}\u0000${admin.password_hash}`);
    const now = this.deps.now().getTime();
    const known = memo ? this.remembered.get(memo) : undefined;
    // A login remembered before the second factor was turned on is not one any more.
    if (known && known.until > now && !(await hasSecondFactor(this.deps.db, known.principal.kind === 'admin' ? known.principal.adminId : ''))) {
      return known.principal;
    }
    const limitKey = `${client}|${username.toLowerCase()}`;
    if ((await this.limiter.attempt(limitKey)) > 0) throw new DavError(429);
    // Checked against a throwaway hash when the user is unknown, so timing does not reveal user names.
    const valid = await verifyPassword(password, admin?.password_hash ?? UNKNOWN_USER_HASH);
    if (!admin || !memo || !valid) throw new DavError(401);
    if (await hasSecondFactor(this.deps.db, admin.id)) throw new DavError(401);
    await this.limiter.succeed(limitKey);
    const principal: Principal = { kind: 'admin', adminId: admin.id, username: admin.username, tokenHash: '' };
    if (this.remembered.size >= REMEMBERED_MAX) this.remembered.clear();
    this.remembered.set(memo, { until: now + REMEMBER_MS, principal });
    return principal;
  }
}
