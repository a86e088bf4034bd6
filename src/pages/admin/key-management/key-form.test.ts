import { describe, expect, it } from 'vitest';
import { expiresAtFor, validateKeyForm, type KeyFormValues } from './key-form';

const base: KeyFormValues = {
  name: 'ci',
  expiry: '7d',
  customDays: '',
  useCustomKey: false,
  customKey: '',
  text: true,
  file: false,
  mount: false,
  basicPath: '/',
};

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
