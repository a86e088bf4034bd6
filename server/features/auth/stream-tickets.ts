import { createMiddleware } from 'hono/factory';
import { STREAM_TICKET_TTL_MS, type StreamTicket } from '../../../contract/jobs';
import type { AppDeps, AppEnv, Principal } from '../../context';
import { resolveTokenHash } from './sessions';

const PURPOSE = 'event-stream-ticket';

/**
 * Tickets for the admin's event streams (an `EventSource` sends no Authorization header): signed, a minute long,
 * and tied to the session that asked, so that they die with it. The session token itself never enters a URL.
 */
export function issueStreamTicket(deps: AppDeps, principal: Extract<Principal, { kind: 'admin' }>): StreamTicket {
  const expires = deps.now().getTime() + STREAM_TICKET_TTL_MS;
  const message = `${principal.tokenHash}.${expires}`;
  return { ticket: `${message}.${deps.secrets.sign(PURPOSE, message)}`, expiresAt: new Date(expires).toISOString() };
}

async function ticketPrincipal(deps: AppDeps, ticket: string): Promise<Principal | undefined> {
  const [tokenHash = '', expires = '', signature = ''] = ticket.split('.');
  if (!deps.secrets.verify(PURPOSE, `${tokenHash}.${expires}`, signature)) return undefined;
  if (!(Number(expires) > deps.now().getTime())) return undefined;
  const admin = await resolveTokenHash(deps.db, tokenHash, deps.now());
  return admin && { kind: 'admin', ...admin };
}

/** Before `requireAdmin` on an event stream: a caller without credentials may present a ticket (`?ticket=`). */
export const acceptStreamTicket = (deps: AppDeps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const ticket = c.req.query('ticket');
    if (ticket && c.get('principal').kind === 'anonymous') {
      const principal = await ticketPrincipal(deps, ticket);
      if (principal) c.set('principal', principal);
      else c.set('credentialProblem', 'token_expired');
    }
    await next();
  });
