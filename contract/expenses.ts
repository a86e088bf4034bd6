import * as v from 'valibot';
import { offsetPaginationSchema, offsetQuery } from './lists';

export const EXPENSE_TITLE_MAX = 200;
export const EXPENSE_DESCRIPTION_MAX = 5000;
export const EXPENSE_NOTE_MAX = 1000;
export const EXPENSE_CATEGORY_MAX = 50;
export const EXPENSE_CATEGORIES_MAX = 50;
/** A cap that refuses typing slips (an extra run of zeros) long before totals approach 2^53. */
export const EXPENSE_AMOUNT_MAX_MINOR = 1_000_000_000_000;
export const EXPENSE_RECEIPTS_MAX = 20;
export const EXPENSE_PAGE_SIZE = 20;
export const EXPENSE_PAGE_SIZE_MAX = 100;
export const DEFAULT_EXPENSE_CATEGORIES = ['travel', 'meals', 'lodging', 'supplies', 'other'] as const;

// ---------------------------------------------------------------------------------------------------------------
// The lifecycle: one table that the server enforces and the UI's machine is built from.

export const EXPENSE_STATUSES = ['draft', 'submitted', 'processing', 'approved', 'rejected'] as const;
export type ExpenseStatus = (typeof EXPENSE_STATUSES)[number];

export const EXPENSE_EVENTS = ['submit', 'process', 'approve', 'reject'] as const;
export type ExpenseEvent = (typeof EXPENSE_EVENTS)[number];

/** `owner`: the claim's creator (an admin's own claims included); `admin`: the admin, on any claim. */
export type ExpenseActorRole = 'owner' | 'admin';

export interface ExpenseTransition {
  from: readonly ExpenseStatus[];
  to: ExpenseStatus;
  by: ExpenseActorRole;
}

export const EXPENSE_INITIAL_STATUS: ExpenseStatus = 'draft';

export const EXPENSE_TRANSITIONS: Readonly<Record<ExpenseEvent, ExpenseTransition>> = {
  submit: { from: ['draft', 'rejected'], to: 'submitted', by: 'owner' },
  process: { from: ['submitted'], to: 'processing', by: 'admin' },
  approve: { from: ['processing'], to: 'approved', by: 'admin' },
  reject: { from: ['processing'], to: 'rejected', by: 'admin' },
};

/** The status `event` leads to from `status`; undefined when the table has no such transition. */
export function nextExpenseStatus(status: ExpenseStatus, event: ExpenseEvent): ExpenseStatus | undefined {
  const transition = EXPENSE_TRANSITIONS[event];
  return transition.from.includes(status) ? transition.to : undefined;
}

/**
 * The steps one request for `event` takes from `status`. An admin may approve or reject a submitted claim at once:
 * the review step is then recorded before the decision, so the timeline still shows who took the claim up.
 */
export function expenseStepsFor(status: ExpenseStatus, event: ExpenseEvent): ExpenseEvent[] {
  return status === 'submitted' && (event === 'approve' || event === 'reject') ? ['process', event] : [event];
}

/** Where one request for `event` leaves a claim in `status`, its implied steps included; undefined if it cannot. */
export function expenseStatusAfter(status: ExpenseStatus, event: ExpenseEvent): ExpenseStatus | undefined {
  let at: ExpenseStatus | undefined = status;
  for (const step of expenseStepsFor(status, event)) at = at && nextExpenseStatus(at, step);
  return at;
}

/** Whether a caller in these roles may fire `event` at all (whatever the status). */
export function mayFireExpenseEvent(event: ExpenseEvent, roles: { owner: boolean; admin: boolean }): boolean {
  return EXPENSE_TRANSITIONS[event].by === 'owner' ? roles.owner : roles.admin;
}

/** The events a caller in these roles can fire on a claim in `status` (what the UI offers). */
export function availableExpenseEvents(status: ExpenseStatus, roles: { owner: boolean; admin: boolean }): ExpenseEvent[] {
  return EXPENSE_EVENTS.filter((event) => mayFireExpenseEvent(event, roles) && expenseStatusAfter(status, event) !== undefined);
}

/** The owner may change a claim's fields and receipts only while it is a draft or was rejected. */
export const canEditExpense = (status: ExpenseStatus): boolean => status === 'draft' || status === 'rejected';
/** Only drafts can be deleted: anything once submitted stays on record. */
export const canDeleteExpense = (status: ExpenseStatus): boolean => status === 'draft';

/** A claim's status is the fold of its events, oldest first; an event the table refuses makes the history invalid. */
export function foldExpenseEvents(events: readonly { event: ExpenseEvent }[]): ExpenseStatus {
  return events.reduce<ExpenseStatus>((status, { event }) => {
    const next = nextExpenseStatus(status, event);
    if (next === undefined) throw new Error(`Event ${event} cannot follow status ${status}`);
    return next;
  }, EXPENSE_INITIAL_STATUS);
}

// ---------------------------------------------------------------------------------------------------------------
// Money: integer minor units with an ISO 4217 code; the number of decimals comes from Intl (JPY 0, EUR 2, BHD 3).

let currencies: ReadonlySet<string> | undefined;
/** The ISO 4217 codes this runtime knows. */
export function isoCurrencies(): ReadonlySet<string> {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies;
}

export const isIsoCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && isoCurrencies().has(code);

/** How many decimals the currency's minor unit has. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Minor units as plain major-unit text, no grouping: 1250 EUR → `12.50`, 1250 JPY → `1250`. */
export function formatMinorUnits(amountMinor: number, currency: string): string {
  const digits = currencyDigits(currency);
  const sign = amountMinor < 0 ? '-' : '';
  const text = String(Math.abs(amountMinor));
  if (digits === 0) return sign + text;
  const padded = text.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** Major-unit text (`12.5`, `12.50`, `12`) as minor units; undefined when it has more decimals than the currency. */
export function parseMajorUnits(text: string, currency: string): number | undefined {
  const digits = currencyDigits(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) return undefined;
  const minor = Number((match[1] ?? '') + (match[2] ?? '').padEnd(digits, '0'));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Dates: `spent_on` is a calendar date with no zone, so "not in the future" allows today anywhere on Earth.

const LATEST_ZONE_OFFSET_MS = 14 * 3_600_000; // UTC+14 is the earliest any date begins.

/** The latest `spent_on` a claim may have at `now`: today's date in the zone that is furthest ahead. */
export const latestSpentOn = (now: Date): string => new Date(now.getTime() + LATEST_ZONE_OFFSET_MS).toISOString().slice(0, 10);

export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

export const calendarDateSchema = v.pipe(v.string(), v.check(isCalendarDate, 'invalid_date'));

// ---------------------------------------------------------------------------------------------------------------
// Receipts: the types a claim accepts, checked by name here and by the bytes' signature on the server.

export const RECEIPT_TYPES = [
  { contentType: 'image/png', extensions: ['png'] },
  { contentType: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  { contentType: 'image/gif', extensions: ['gif'] },
  { contentType: 'image/webp', extensions: ['webp'] },
  { contentType: 'application/pdf', extensions: ['pdf'] },
] as const;
export type ReceiptContentType = (typeof RECEIPT_TYPES)[number]['contentType'];

/** For a file input's `accept`. */
export const RECEIPT_ACCEPT = RECEIPT_TYPES.flatMap((type) => [type.contentType, ...type.extensions.map((ext) => `.${ext}`)]).join(',');

/** The receipt type a file name claims by its extension; undefined when it names none of them. */
export function receiptTypeOfName(filename: string): ReceiptContentType | undefined {
  const ext = /\.([^./\\]+)$/.exec(filename)?.[1]?.toLowerCase();
  return RECEIPT_TYPES.find((type) => (type.extensions as readonly string[]).includes(ext ?? ''))?.contentType;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests.

const titleSchema = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(EXPENSE_TITLE_MAX, 'too_long'));
const amountSchema = v.pipe(
  v.number(),
  v.integer('must_be_integer'),
  v.minValue(1, 'must_be_positive'),
  v.maxValue(EXPENSE_AMOUNT_MAX_MINOR, 'too_large'),
);
const currencySchema = v.pipe(v.string(), v.check(isIsoCurrency, 'unknown_currency'));
/** The date's format; the server refuses one after `latestSpentOn(now)` with `future_date`. */
const spentOnSchema = calendarDateSchema;
export const expenseCategorySchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(EXPENSE_CATEGORY_MAX, 'too_long'),
  v.check((text) => !/\p{Cc}/u.test(text), 'invalid_characters'),
);
const descriptionSchema = v.pipe(v.string(), v.trim(), v.maxLength(EXPENSE_DESCRIPTION_MAX, 'too_long'));

/** `POST /api/expenses`: a new draft. The category must be one of the current settings' list. */
export const createExpenseRequestSchema = v.object({
  title: titleSchema,
  amount_minor: amountSchema,
  currency: currencySchema,
  spent_on: spentOnSchema,
  category: expenseCategorySchema,
  description: v.optional(descriptionSchema, ''),
});
export type CreateExpenseRequest = v.InferInput<typeof createExpenseRequestSchema>;

/** `PATCH /api/expenses/{id}`: any of the fields; only while `canEditExpense(status)`. */
export const updateExpenseRequestSchema = v.partial(
  v.object({
    title: titleSchema,
    amount_minor: amountSchema,
    currency: currencySchema,
    spent_on: spentOnSchema,
    category: expenseCategorySchema,
    description: descriptionSchema,
  }),
);
export type UpdateExpenseRequest = v.InferInput<typeof updateExpenseRequestSchema>;

const noteSchema = v.pipe(v.string(), v.trim(), v.maxLength(EXPENSE_NOTE_MAX, 'too_long'));
/** `POST /api/admin/expenses/{id}/process|approve` (the body may be absent). */
export const expenseReviewRequestSchema = v.object({ note: v.optional(noteSchema) });
/** `POST /api/admin/expenses/{id}/reject`: a rejection says why. */
export const expenseRejectRequestSchema = v.object({ note: v.pipe(noteSchema, v.minLength(1, 'required')) });
export type ExpenseReviewRequest = v.InferInput<typeof expenseReviewRequestSchema>;

/** `GET /api/expenses`. */
export const expenseListQuerySchema = v.object({
  ...offsetQuery(EXPENSE_PAGE_SIZE, EXPENSE_PAGE_SIZE_MAX).entries,
  status: v.optional(v.picklist(EXPENSE_STATUSES, 'invalid_choice')),
});

/** `GET /api/admin/expenses/export.csv`: `from`/`to` bound `spent_on`, both inclusive. */
export const expenseExportQuerySchema = v.object({
  status: v.optional(v.picklist(EXPENSE_STATUSES, 'invalid_choice')),
  from: v.optional(calendarDateSchema),
  to: v.optional(calendarDateSchema),
});
export type ExpenseExportQuery = v.InferInput<typeof expenseExportQuerySchema>;

/** The `expense_categories` system setting: a short list the admin edits. */
export const expenseCategoriesSettingSchema = v.pipe(
  v.array(expenseCategorySchema),
  v.minLength(1, 'required'),
  v.maxLength(EXPENSE_CATEGORIES_MAX, 'too_many'),
  v.check((list) => new Set(list).size === list.length, 'duplicate'),
);

// ---------------------------------------------------------------------------------------------------------------
// Answers.

export const expenseReceiptSchema = v.object({
  id: v.string(),
  filename: v.string(),
  content_type: v.picklist(RECEIPT_TYPES.map((type) => type.contentType)),
  size: v.number(),
  created_at: v.string(),
});
export type ExpenseReceipt = v.InferOutput<typeof expenseReceiptSchema>;

/** One transition as recorded: `actor` is `admin` or `apikey:<id>`, `actor_name` the name it had then. */
export const expenseEventRecordSchema = v.object({
  id: v.string(),
  event: v.picklist(EXPENSE_EVENTS),
  from_status: v.picklist(EXPENSE_STATUSES),
  to_status: v.picklist(EXPENSE_STATUSES),
  actor: v.string(),
  actor_name: v.string(),
  note: v.nullable(v.string()),
  created_at: v.string(),
});
export type ExpenseEventRecord = v.InferOutput<typeof expenseEventRecordSchema>;

/** A claim in lists. `created_by` is `admin` or `apikey:<id>`; `owner_name` the name it had when filed. */
export const expenseClaimSchema = v.object({
  id: v.string(),
  title: v.string(),
  amount_minor: v.number(),
  currency: v.string(),
  spent_on: v.string(),
  category: v.string(),
  description: v.string(),
  status: v.picklist(EXPENSE_STATUSES),
  created_by: v.string(),
  owner_name: v.string(),
  receipt_count: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});
export type ExpenseClaim = v.InferOutput<typeof expenseClaimSchema>;

/** `GET /api/expenses/{id}`: the claim with its receipts and its events (oldest first) for a timeline. */
export const expenseClaimDetailSchema = v.object({
  ...expenseClaimSchema.entries,
  receipts: v.array(expenseReceiptSchema),
  events: v.array(expenseEventRecordSchema),
});
export type ExpenseClaimDetail = v.InferOutput<typeof expenseClaimDetailSchema>;

/** The sum of the listed filter's claims in one currency (all pages, not just this one). */
export const expenseTotalSchema = v.object({ currency: v.string(), amount_minor: v.number(), count: v.number() });
export type ExpenseTotal = v.InferOutput<typeof expenseTotalSchema>;

export const expenseListSchema = v.object({
  items: v.array(expenseClaimSchema),
  pagination: offsetPaginationSchema,
  /** Ordered by currency code. */
  totals: v.array(expenseTotalSchema),
});
export type ExpenseList = v.InferOutput<typeof expenseListSchema>;

export const expenseCategoriesSchema = v.object({ categories: v.array(v.string()) });

/** `data` of the 409 a refused transition (or edit, delete) answers: the claim's current status. */
export const expenseConflictDataSchema = v.looseObject({ error: v.literal('conflict'), status: v.picklist(EXPENSE_STATUSES) });
