import { KEY_MODULE_PERMISSION } from '../admin-modules';
import { mayUse, type Principal } from '../permissions';

export type NavTarget = 'home' | 'upload' | 'mount-explorer' | 'expense' | 'admin' | 'login';

/** Whether `principal` has a module of the admin area (the admin panel, or a key's user panel) to open. */
const hasPanel = (principal: Principal) =>
  principal.role === 'admin' || Object.values(KEY_MODULE_PERMISSION).some((permission) => mayUse(principal, permission));

/**
 * The main menu's entries: only what the person can open. A visitor who came by a link to a share or a file request
 * sees what anyone may start with, none of the operator's pages; someone signed out elsewhere also sees the way in.
 */
export function navTargetsFor(principal: Principal, onVisitorPage: boolean): NavTarget[] {
  if (principal.role === null) return onVisitorPage ? ['home', 'upload'] : ['home', 'upload', 'login'];
  const targets: NavTarget[] = ['home'];
  if (mayUse(principal, 'file')) targets.push('upload');
  if (mayUse(principal, 'mount')) targets.push('mount-explorer');
  if (mayUse(principal, 'expense')) targets.push('expense');
  if (hasPanel(principal)) targets.push('admin');
  return targets;
}

/**
 * Where a signed-in person's work is, for the login page to land them on: the panel if they have one, else the first
 * page their key opens (an expense-only key → its claims).
 */
export function landingPathOf(principal: Principal): string | undefined {
  if (principal.role === null || hasPanel(principal)) return undefined;
  if (mayUse(principal, 'mount')) return '/mount-explorer';
  if (mayUse(principal, 'expense')) return '/expense';
  return undefined;
}
