import { describe, expect, it } from 'vitest';
import type { Permissions } from '../../contract/auth';
import { mayUse, principalOf, roleOf, storedPrincipal } from './permissions';

const expenseKey: Permissions = { text: false, file: false, mount: false, expense: true };
const textKey: Permissions = { text: true, file: false, mount: false, expense: false };

describe('mayUse', () => {
  it('lets the admin use everything, whatever permissions are around', () => {
    expect(mayUse({ role: 'admin' }, 'expense')).toBe(true);
    expect(mayUse({ role: 'admin', permissions: textKey }, 'expense')).toBe(true);
  });
  it('lets a key use only what it was granted', () => {
    expect(mayUse({ role: 'apiKey', permissions: expenseKey }, 'expense')).toBe(true);
    expect(mayUse({ role: 'apiKey', permissions: textKey }, 'expense')).toBe(false);
    expect(mayUse({ role: 'apiKey', permissions: textKey }, 'text')).toBe(true);
  });
  it('refuses a key whose stored permissions predate the expense permission, and anyone signed out', () => {
    const older = { text: true, file: true, mount: true } as unknown as Permissions;
    expect(mayUse({ role: 'apiKey', permissions: older }, 'expense')).toBe(false);
    expect(mayUse({ role: 'apiKey' }, 'expense')).toBe(false);
    expect(mayUse({ role: null, permissions: expenseKey }, 'expense')).toBe(false);
  });
});

describe('roleOf', () => {
  const inState = (state: string) => ({ matches: (value: string) => value === state });
  it("names the auth machine's signed-in states", () => {
    expect(roleOf(inState('admin'))).toBe('admin');
    expect(roleOf(inState('apiKey'))).toBe('apiKey');
    expect(roleOf(inState('anonymous'))).toBeNull();
  });
  it('takes the permissions along', () => {
    expect(principalOf({ ...inState('apiKey'), context: { permissions: expenseKey } })).toEqual({ role: 'apiKey', permissions: expenseKey });
  });
});

describe('storedPrincipal', () => {
  it('reads an admin token, else a key with its permissions, else no one', () => {
    expect(storedPrincipal({ adminToken: 't', apiKey: 'k', permissions: expenseKey })).toEqual({ role: 'admin' });
    expect(storedPrincipal({ apiKey: 'k', permissions: expenseKey })).toEqual({ role: 'apiKey', permissions: expenseKey });
    expect(storedPrincipal({})).toEqual({ role: null });
  });
});
