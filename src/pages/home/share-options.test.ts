import { describe, expect, it } from 'vitest';
import { expiresAtFor, validateShareForm, type ShareFormValues } from './share-options';

const values: ShareFormValues = { slug: '', remark: '', password: '', expiry: 'never', maxViews: '', encrypt: false };

describe('share form', () => {
  it('needs content', () => {
    expect(validateShareForm(values, '  \n ').content).toBe('required');
    expect(validateShareForm(values, 'hi')).toEqual({});
  });
  it('checks a custom slug: charset, length, reserved', () => {
    expect(validateShareForm({ ...values, slug: 'my-note_1' }, 'x').slug).toBeUndefined();
    expect(validateShareForm({ ...values, slug: 'a b' }, 'x').slug).toBe('invalid_characters');
    expect(validateShareForm({ ...values, slug: 'x'.repeat(51) }, 'x').slug).toBe('too_long');
    expect(validateShareForm({ ...values, slug: 'admin' }, 'x').slug).toBe('reserved');
  });
  it('takes max views as a whole number of 0 or more', () => {
    expect(validateShareForm({ ...values, maxViews: '0' }, 'x').maxViews).toBeUndefined();
    expect(validateShareForm({ ...values, maxViews: '-1' }, 'x').maxViews).toBe('invalid');
    expect(validateShareForm({ ...values, maxViews: '2.5' }, 'x').maxViews).toBe('invalid');
  });
  it('turns an expiry choice into a time', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(expiresAtFor('never', now)).toBeNull();
    expect(expiresAtFor('1h', now)).toBe('2026-01-01T01:00:00.000Z');
    expect(expiresAtFor('14d', now)).toBe('2026-01-15T00:00:00.000Z');
  });
});
