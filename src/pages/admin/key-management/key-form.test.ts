import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../../contract/api-keys';
import { expiresAtFor, keyFormValuesOf, NEW_KEY_FORM, permissionFields, validateKeyForm, type KeyFormValues } from './key-form';

const base: KeyFormValues = { ...NEW_KEY_FORM, name: 'ci', expiry: '7d' };

describe('validateKeyForm', () => {
  it('accepts a complete form', () => {
    expect(validateKeyForm(base)).toEqual({});
  });
  it('requires a name', () => {
    expect(validateKeyForm({ ...base, name: '  ' }).name).toBe('required');
  });
  it('requires valid custom days only when custom expiry is chosen', () => {
    expect(validateKeyForm({ ...base, expiry: 'custom' }).customDays).toBe('required');
    expect(validateKeyForm({ ...base, expiry: 'custom', customDays: '1.5' }).customDays).toBe('invalid');
    expect(validateKeyForm({ ...base, expiry: 'custom', customDays: '0' }).customDays).toBe('invalid');
    expect(validateKeyForm({ ...base, expiry: 'custom', customDays: '90' }).customDays).toBeUndefined();
    expect(validateKeyForm({ ...base, expiry: 'never', customDays: 'x' }).customDays).toBeUndefined();
  });
  it('checks a custom key for presence, characters and length', () => {
    const custom = { ...base, useCustomKey: true };
    expect(validateKeyForm({ ...custom, customKey: '' }).customKey).toBe('required');
    expect(validateKeyForm({ ...custom, customKey: 'has space!' }).customKey).toBe('characters');
    expect(validateKeyForm({ ...custom, customKey: 'short' }).customKey).toBe('length');
    expect(validateKeyForm({ ...custom, customKey: 'good_key-123' }).customKey).toBeUndefined();
  });
  it('refuses base paths that could escape', () => {
    expect(validateKeyForm({ ...base, basicPath: '/docs/../etc' }).basicPath).toBe('invalid');
    expect(validateKeyForm({ ...base, basicPath: 'docs' }).basicPath).toBe('invalid');
    expect(validateKeyForm({ ...base, basicPath: '/docs/team' }).basicPath).toBeUndefined();
  });
  it('takes a base path with a trailing slash, as the server does (it stores it without)', () => {
    expect(validateKeyForm({ ...base, basicPath: '/docs/team/' }).basicPath).toBeUndefined();
    expect(validateKeyForm({ ...base, basicPath: '/docs//' }).basicPath).toBe('invalid');
  });
});

describe('expiresAtFor', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  it('maps each choice to a time, null or unchanged', () => {
    expect(expiresAtFor({ expiry: '1d', customDays: '' }, now)).toBe('2026-01-02T00:00:00.000Z');
    expect(expiresAtFor({ expiry: '30d', customDays: '' }, now)).toBe('2026-01-31T00:00:00.000Z');
    expect(expiresAtFor({ expiry: 'custom', customDays: '10' }, now)).toBe('2026-01-11T00:00:00.000Z');
    expect(expiresAtFor({ expiry: 'never', customDays: '' }, now)).toBeNull();
    expect(expiresAtFor({ expiry: 'keep', customDays: '' }, now)).toBeUndefined();
  });
});

describe('permissions', () => {
  const key: ApiKey = {
    id: 'k1',
    name: 'claims',
    key_masked: 'abcdef…',
    text_permission: false,
    file_permission: true,
    mount_permission: false,
    expense_permission: true,
    basic_path: '/team',
    expires_at: null,
    last_used: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };

  it('gives a new key the text permission only: expense claims are off until chosen', () => {
    expect(NEW_KEY_FORM.permissions).toEqual({ text: true, file: false, mount: false, expense: false });
    expect(permissionFields(NEW_KEY_FORM.permissions)).toEqual({
      text_permission: true,
      file_permission: false,
      mount_permission: false,
      expense_permission: false,
    });
  });

  it("fills an edited key's form with its four permissions and sends them back unchanged", () => {
    const values = keyFormValuesOf(key);
    expect(values).toMatchObject({ name: 'claims', expiry: 'keep', basicPath: '/team' });
    expect(values.permissions).toEqual({ text: false, file: true, mount: false, expense: true });
    expect(permissionFields(values.permissions)).toEqual({
      text_permission: false,
      file_permission: true,
      mount_permission: false,
      expense_permission: true,
    });
  });
});
