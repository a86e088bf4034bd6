import {
  EXPENSE_AMOUNT_MAX_MINOR,
  EXPENSE_DESCRIPTION_MAX,
  EXPENSE_TITLE_MAX,
  formatMinorUnits,
  isCalendarDate,
  isIsoCurrency,
  parseMajorUnits,
  receiptTypeOfName,
  type CreateExpenseRequest,
  type ExpenseClaim,
  type UpdateExpenseRequest,
} from '../../../contract/expenses';

/** The form as typed: the amount in major units (`12.50`), the date as `<input type="date">` gives it. */
export interface ClaimFormValues {
  title: string;
  amount: string;
  currency: string;
  spentOn: string;
  category: string;
  description: string;
}

export type ClaimFormError =
  | 'required'
  | 'too_long'
  | 'invalid_amount'
  | 'too_many_decimals'
  | 'not_positive'
  | 'too_large'
  | 'unknown_currency'
  | 'invalid_date'
  | 'future_date'
  | 'unknown_category';

export type ClaimFormErrors = Partial<Record<keyof ClaimFormValues, ClaimFormError>>;

/** The currency a new claim starts with, by the app's language. */
const LOCALE_CURRENCY: Record<string, string> = { 'zh-CN': 'CNY', 'en-US': 'USD' };
export const defaultCurrency = (locale: string): string => LOCALE_CURRENCY[locale] ?? 'USD';

/** Today's date where the user is: a claim's date may be no later (the server allows today anywhere on Earth). */
export function localToday(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export const emptyClaimForm = (locale: string, now: Date): ClaimFormValues => ({
  title: '',
  amount: '',
  currency: defaultCurrency(locale),
  spentOn: localToday(now),
  category: '',
  description: '',
});

/** A claim's fields as the form shows them: its amount back in major units. */
export const claimFormValues = (claim: ExpenseClaim): ClaimFormValues => ({
  title: claim.title,
  amount: formatMinorUnits(claim.amount_minor, claim.currency),
  currency: claim.currency,
  spentOn: claim.spent_on,
  category: claim.category,
  description: claim.description,
});

/** Typed major units as minor units of `currency`, or why not. Grouping commas and spaces are allowed. */
export function amountInMinorUnits(text: string, currency: string): number | ClaimFormError {
  const plain = text.replace(/[,\s]/g, '');
  if (!plain) return 'required';
  if (!/^\d+(\.\d*)?$/.test(plain)) return 'invalid_amount';
  const minor = parseMajorUnits(plain, currency);
  if (minor === undefined) return 'too_many_decimals';
  if (minor < 1) return 'not_positive';
  if (minor > EXPENSE_AMOUNT_MAX_MINOR) return 'too_large';
  return minor;
}

/**
 * Checks every field as the server would (and the date against the user's own today), and builds the request. The
 * amount is checked only once the currency is known, since the currency says how many decimals it may have.
 */
export function validateClaimForm(
  values: ClaimFormValues,
  { now, categories }: { now: Date; categories: readonly string[] | undefined },
): { errors: ClaimFormErrors; request?: CreateExpenseRequest } {
  const errors: ClaimFormErrors = {};
  const title = values.title.trim();
  if (!title) errors.title = 'required';
  else if (title.length > EXPENSE_TITLE_MAX) errors.title = 'too_long';
  const currencyKnown = isIsoCurrency(values.currency);
  if (!currencyKnown) errors.currency = 'unknown_currency';
  const amount = currencyKnown ? amountInMinorUnits(values.amount, values.currency) : undefined;
  if (typeof amount === 'string') errors.amount = amount;
  if (!values.spentOn) errors.spentOn = 'required';
  else if (!isCalendarDate(values.spentOn)) errors.spentOn = 'invalid_date';
  else if (values.spentOn > localToday(now)) errors.spentOn = 'future_date';
  if (!values.category) errors.category = 'required';
  else if (categories && !categories.includes(values.category)) errors.category = 'unknown_category';
  const description = values.description.trim();
  if (description.length > EXPENSE_DESCRIPTION_MAX) errors.description = 'too_long';
  if (Object.keys(errors).length > 0 || typeof amount !== 'number') return { errors };
  return {
    errors,
    request: { title, amount_minor: amount, currency: values.currency, spent_on: values.spentOn, category: values.category, description },
  };
}

/** Only the fields an edit changed: a save that changes nothing sends nothing. */
export function claimChanges(claim: ExpenseClaim, request: CreateExpenseRequest): UpdateExpenseRequest {
  const changes: UpdateExpenseRequest = {};
  if (request.title !== claim.title) changes.title = request.title;
  if (request.amount_minor !== claim.amount_minor) changes.amount_minor = request.amount_minor;
  if (request.currency !== claim.currency) changes.currency = request.currency;
  if (request.spent_on !== claim.spent_on) changes.spent_on = request.spent_on;
  if (request.category !== claim.category) changes.category = request.category;
  if ((request.description ?? '') !== claim.description) changes.description = request.description ?? '';
  return changes;
}

export type ReceiptProblem = 'unsupported_type' | 'too_many';

/**
 * Picked files split into the receipts that can go (images and PDFs, up to the claim's room left) and those that
 * cannot, each with why.
 */
export function sortReceipts(files: readonly File[], room: number): { accepted: File[]; refused: { file: File; problem: ReceiptProblem }[] } {
  const accepted: File[] = [];
  const refused: { file: File; problem: ReceiptProblem }[] = [];
  for (const file of files) {
    if (!receiptTypeOfName(file.name)) refused.push({ file, problem: 'unsupported_type' });
    else if (accepted.length >= room) refused.push({ file, problem: 'too_many' });
    else accepted.push(file);
  }
  return { accepted, refused };
}
