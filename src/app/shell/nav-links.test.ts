import { describe, expect, it } from 'vitest';
import type { Permissions } from '../../../contract/auth';
import type { Principal } from '../permissions';
import { landingPathOf, navTargetsFor } from './nav-links';

const key = (granted: Partial<Permissions>): Principal => ({
  role: 'apiKey',
  permissions: { text: false, file: false, mount: false, expense: false, ...granted },
});

describe('the main menu', () => {
  it('shows a visitor on a share or request page none of the operator pages', () => {
    expect(navTargetsFor({ role: null }, true)).toEqual(['home', 'upload']);
    expect(navTargetsFor({ role: null }, false)).toEqual(['home', 'upload', 'login']);
  });

  it('shows the admin everything', () => {
    expect(navTargetsFor({ role: 'admin' }, true)).toEqual(['home', 'upload', 'mount-explorer', 'expense', 'admin']);
  });

  it.each([
    [{ expense: true }, ['home', 'expense']],
    [{ mount: true }, ['home', 'mount-explorer']],
    [{ text: true }, ['home', 'admin']],
    [{ file: true, mount: true }, ['home', 'upload', 'mount-explorer', 'admin']],
  ])('shows a key with %j only what it opens', (granted, targets) => {
    expect(navTargetsFor(key(granted), false)).toEqual(targets);
  });
});

describe('where a login lands', () => {
  it.each([
    [{ expense: true }, '/expense'],
    [{ mount: true, expense: true }, '/mount-explorer'],
    [{ text: true, expense: true }, undefined],
    [{}, undefined],
  ])('a key with %j lands on %s', (granted, path) => {
    expect(landingPathOf(key(granted))).toBe(path);
  });

  it('leaves the admin in the panel', () => {
    expect(landingPathOf({ role: 'admin' })).toBeUndefined();
  });
});
