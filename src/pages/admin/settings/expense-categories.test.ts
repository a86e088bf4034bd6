import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { EXPENSE_CATEGORY_MAX, expenseCategoriesSettingSchema } from '../../../../contract/expenses';
import { categoriesToSave, categoryErrors } from './expense-categories';

describe('categoryErrors', () => {
  it('accepts distinct names', () => {
    expect(categoryErrors(['travel', 'meals', 'Taxi fares'])).toEqual([undefined, undefined, undefined]);
  });
  it('flags an empty name, an overlong one and control characters', () => {
    expect(categoryErrors(['  ', 'x'.repeat(EXPENSE_CATEGORY_MAX + 1), 'tab\there'])).toEqual([
      'required',
      'too_long',
      'invalid_characters',
    ]);
    expect(categoryErrors(['x'.repeat(EXPENSE_CATEGORY_MAX)])).toEqual([undefined]);
  });
  it('flags the repeat, not the first, comparing names as they are saved (trimmed)', () => {
    expect(categoryErrors(['travel', 'meals', ' travel '])).toEqual([undefined, undefined, 'duplicate']);
    expect(categoryErrors(['Travel', 'travel'])).toEqual([undefined, undefined]);
  });
});

describe('categoriesToSave', () => {
  it('trims each name and keeps the order; a list without errors is one the server takes', () => {
    const rows = [' lodging', 'meals ', 'travel'];
    expect(categoryErrors(rows).every((error) => error === undefined)).toBe(true);
    const saved = categoriesToSave(rows);
    expect(saved).toEqual(['lodging', 'meals', 'travel']);
    expect(v.safeParse(expenseCategoriesSettingSchema, saved).success).toBe(true);
  });
});
