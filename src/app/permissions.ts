import type { Permission, Permissions } from '../../contract/auth';
import type { StoredCredentials } from '../../machines/auth.machine';

export type Role = 'admin' | 'apiKey' | null;

/** Who is signed in, as far as what they may open goes. */
export interface Principal {
  role: Role;
  permissions?: Permissions;
}

/** The auth machine's `admin` and `apiKey` states, a check of the session included, are the signed-in ones. */
export const roleOf = (snapshot: { matches(state: 'admin' | 'apiKey'): boolean }): Role =>
  snapshot.matches('admin') ? 'admin' : snapshot.matches('apiKey') ? 'apiKey' : null;

/** Who the auth machine's snapshot says is signed in. */
export const principalOf = (snapshot: Parameters<typeof roleOf>[0] & { context: { permissions?: Permissions } }): Principal => ({
  role: roleOf(snapshot),
  permissions: snapshot.context.permissions,
});

/** What the browser stored says, for the shell's first render: the auth machine checks it once it has loaded. */
export const storedPrincipal = ({ adminToken, apiKey, permissions }: StoredCredentials): Principal =>
  adminToken ? { role: 'admin' } : apiKey ? { role: 'apiKey', permissions } : { role: null };

/**
 * Whether `principal` may use what an API key reaches with `permission`; the admin may use everything. A key's
 * permissions stored by an older version lack the newer ones (`expense`): those count as not granted.
 */
export const mayUse = ({ role, permissions }: Principal, permission: Permission): boolean =>
  role === 'admin' || (role === 'apiKey' && permissions?.[permission] === true);
