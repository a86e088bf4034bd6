import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context';
import { publicBaseUrl } from '../../http';
import type { RelyingParty } from './passkeys';

/**
 * Passkeys belong to the address people reach the app at: `PUBLIC_URL` when set, else the request's own origin
 * (http://localhost works: browsers treat it as secure). Its host name is the RP ID, so a passkey made on one host
 * name does not work on another.
 */
export function relyingPartyOf(c: Context<AppEnv>, deps: AppDeps): RelyingParty {
  const url = new URL(publicBaseUrl(c, deps));
  return { id: url.hostname, origin: url.origin };
}
