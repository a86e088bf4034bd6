import * as v from 'valibot';
import { expenseCategorySchema } from '../../../../contract/expenses';

/** What can be wrong with one category: the contract's codes for a name, and a repeat of an earlier row. */
export type CategoryError = 'required' | 'too_long' | 'invalid_characters' | 'duplicate';

/**
 * Each row's problem, undefined when there is none, checked as the server checks the list: each name trimmed, by
 * contract/expenses.ts's rules, and no name twice (the first one is kept, the repeat is flagged).
 */
export function categoryErrors(rows: readonly string[]): (CategoryError | undefined)[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const parsed = v.safeParse(expenseCategorySchema, row);
    // The schema's messages are the codes above (see contract/expenses.ts).
    if (!parsed.success) return parsed.issues[0].message as CategoryError;
    if (seen.has(parsed.output)) return 'duplicate';
    seen.add(parsed.output);
    return undefined;
  });
}

/** The list as it is saved: the names trimmed, in the admin's order. */
export const categoriesToSave = (rows: readonly string[]): string[] => rows.map((row) => row.trim());
