import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { EXPENSE_RECEIPTS_MAX, formatMinorUnits, type DEFAULT_EXPENSE_CATEGORIES, type ExpenseEvent, type ExpenseStatus } from '../../../contract/expenses';
import type { ClaimFormError, ReceiptProblem } from './claim-form';

const STATUS: Record<ExpenseStatus, MessageDescriptor> = {
  draft: msg`Draft`,
  submitted: msg`Submitted`,
  processing: msg`Processing`,
  approved: msg`Approved`,
  rejected: msg`Rejected`,
};

/** The timeline's words for each event. */
const EVENT: Record<ExpenseEvent, MessageDescriptor> = {
  submit: msg`Submitted for review`,
  process: msg`Review started`,
  approve: msg`Approved`,
  reject: msg`Rejected`,
};

/** The built-in categories in the reader's language; ones the admin added are shown as written. */
const CATEGORY: Record<(typeof DEFAULT_EXPENSE_CATEGORIES)[number], MessageDescriptor> = {
  travel: msg`Travel`,
  meals: msg`Meals`,
  lodging: msg`Lodging`,
  supplies: msg`Supplies`,
  other: msg`Other`,
};

const FORM_ERROR: Record<ClaimFormError, MessageDescriptor> = {
  required: msg`This field is required`,
  too_long: msg`This is too long`,
  invalid_amount: msg`Enter an amount such as 12.50`,
  too_many_decimals: msg`This currency has fewer decimals`,
  not_positive: msg`The amount must be more than zero`,
  too_large: msg`This amount is too large`,
  unknown_currency: msg`Choose a currency`,
  invalid_date: msg`Enter a valid date`,
  future_date: msg`The date cannot be in the future`,
  unknown_category: msg`Choose one of the categories`,
};

const isBuiltInCategory = (category: string): category is keyof typeof CATEGORY => Object.hasOwn(CATEGORY, category);

/** An amount as the reader's locale writes money: `€42.50`, `¥1,500`. */
export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(formatMinorUnits(amountMinor, currency)));
  } catch {
    return `${formatMinorUnits(amountMinor, currency)} ${currency}`;
  }
}

/** The expense pages' translated words for the contract's codes. */
export function useExpenseText() {
  const { i18n, t } = useLingui();
  return {
    status: (status: ExpenseStatus) => i18n._(STATUS[status]),
    event: (event: ExpenseEvent) => i18n._(EVENT[event]),
    category: (category: string) => (isBuiltInCategory(category) ? i18n._(CATEGORY[category]) : category),
    formError: (error: ClaimFormError | undefined) => (error ? i18n._(FORM_ERROR[error]) : undefined),
    receiptProblem: (name: string, problem: ReceiptProblem) => {
      const max = EXPENSE_RECEIPTS_MAX;
      return problem === 'unsupported_type' ? t`${name} is not an image or a PDF` : t`${name} was left out: a claim holds at most ${max} receipts`;
    },
    money: (amountMinor: number, currency: string) => formatMoney(amountMinor, currency, i18n.locale),
  };
}

export type ExpenseText = ReturnType<typeof useExpenseText>;
