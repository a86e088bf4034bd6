import { describe, expect, it } from 'vitest';
import type { ExpenseClaim } from '../../../contract/expenses';
import { amountInMinorUnits, claimChanges, claimFormValues, defaultCurrency, emptyClaimForm, localToday, sortReceipts, validateClaimForm, type ClaimFormValues } from './claim-form';

const now = new Date(2026, 10, 21, 23, 30); // 21 November 2026, late evening where the test runs
const categories = ['travel', 'meals'];
const valid: ClaimFormValues = { title: ' Taxi ', amount: '42.5', currency: 'EUR', spentOn: '2026-11-20', category: 'travel', description: ' to the airport ' };

describe('claim form', () => {
  it('turns major units into minor units with the currency’s own decimals', () => {
    expect(amountInMinorUnits('42.5', 'EUR')).toBe(4250);
    expect(amountInMinorUnits('1,234.56', 'USD')).toBe(123456);
    expect(amountInMinorUnits('1500', 'JPY')).toBe(1500);
    expect(amountInMinorUnits('1.5', 'JPY')).toBe('too_many_decimals');
    expect(amountInMinorUnits('1.234', 'BHD')).toBe(1234);
    expect(amountInMinorUnits('12.345', 'EUR')).toBe('too_many_decimals');
    expect(amountInMinorUnits('', 'EUR')).toBe('required');
    expect(amountInMinorUnits('-3', 'EUR')).toBe('invalid_amount');
    expect(amountInMinorUnits('1e3', 'EUR')).toBe('invalid_amount');
    expect(amountInMinorUnits('0.00', 'EUR')).toBe('not_positive');
    expect(amountInMinorUnits('99999999999', 'EUR')).toBe('too_large');
  });

  it('builds the request from valid fields, trimmed', () => {
    expect(validateClaimForm(valid, { now, categories })).toEqual({
      errors: {},
      request: { title: 'Taxi', amount_minor: 4250, currency: 'EUR', spent_on: '2026-11-20', category: 'travel', description: 'to the airport' },
    });
  });

  it('says what is wrong with each field', () => {
    const { errors, request } = validateClaimForm(
      { title: '  ', amount: 'abc', currency: 'EUR', spentOn: '2026-11-22', category: '', description: 'x'.repeat(5001) },
      { now, categories },
    );
    expect(request).toBeUndefined();
    expect(errors).toEqual({ title: 'required', amount: 'invalid_amount', spentOn: 'future_date', category: 'required', description: 'too_long' });
    expect(validateClaimForm({ ...valid, title: 't'.repeat(201), currency: 'XXY', spentOn: '2026-02-30', category: 'yachts' }, { now, categories }).errors).toEqual({
      title: 'too_long',
      currency: 'unknown_currency',
      spentOn: 'invalid_date',
      category: 'unknown_category',
    });
    // Today is allowed; before the categories have loaded, the server is left to judge the category.
    expect(validateClaimForm({ ...valid, spentOn: localToday(now), category: 'yachts' }, { now, categories: undefined }).errors).toEqual({});
    expect(validateClaimForm({ ...valid, spentOn: '' }, { now, categories }).errors).toEqual({ spentOn: 'required' });
  });

  it('starts with the language’s currency and today, and shows a claim’s amount back in major units', () => {
    expect(defaultCurrency('zh-CN')).toBe('CNY');
    expect(defaultCurrency('en-US')).toBe('USD');
    expect(emptyClaimForm('zh-CN', now)).toMatchObject({ currency: 'CNY', spentOn: '2026-11-21' });
    const claim = { title: 'Taxi', amount_minor: 4250, currency: 'EUR', spent_on: '2026-11-20', category: 'travel', description: '' } as ExpenseClaim;
    expect(claimFormValues(claim)).toEqual({ title: 'Taxi', amount: '42.50', currency: 'EUR', spentOn: '2026-11-20', category: 'travel', description: '' });
    expect(claimFormValues({ ...claim, amount_minor: 5, currency: 'JPY' }).amount).toBe('5');
  });

  it('sends only what an edit changed', () => {
    const claim = { title: 'Taxi', amount_minor: 4250, currency: 'EUR', spent_on: '2026-11-20', category: 'travel', description: '' } as ExpenseClaim;
    const same = validateClaimForm(claimFormValues(claim), { now, categories }).request!;
    expect(claimChanges(claim, same)).toEqual({});
    expect(claimChanges(claim, { ...same, amount_minor: 3900, description: 'late' })).toEqual({ amount_minor: 3900, description: 'late' });
  });

  it('takes images and PDFs as receipts, as many as the claim has room for', () => {
    const file = (name: string) => new File(['x'], name);
    const { accepted, refused } = sortReceipts([file('a.png'), file('notes.txt'), file('b.PDF'), file('c.jpeg')], 2);
    expect(accepted.map((entry) => entry.name)).toEqual(['a.png', 'b.PDF']);
    expect(refused.map((entry) => [entry.file.name, entry.problem])).toEqual([
      ['notes.txt', 'unsupported_type'],
      ['c.jpeg', 'too_many'],
    ]);
  });
});
