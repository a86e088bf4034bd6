import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Selectable, type Transaction, type Updateable } from 'kysely';
import type * as v from 'valibot';
import {
  canEditExpense,
  expenseStepsFor,
  foldExpenseEvents,
  latestSpentOn,
  mayFireExpenseEvent,
  type createExpenseRequestSchema,
  type ExpenseClaim,
  type ExpenseClaimDetail,
  type ExpenseEvent,
  type ExpenseEventRecord,
  type ExpenseList,
  type ExpenseStatus,
  type updateExpenseRequestSchema,
} from '../../../contract/expenses';
import { creatorOf, type AppDeps, type Principal } from '../../context';
import type { DB } from '../../db/database';
import { insertionOrder, lockTransaction, newestPage } from '../../db/dialect';
import type { Database, ExpenseClaimsTable } from '../../db/schema';
import { ApiError } from '../../errors';
import { appendExpenseEvent, expenseEvents, insertExpenseClaim, statusConflict } from './events';
import { readSettings } from '../settings/settings';
import { emitEvent } from '../events/bus';
import { expenseObject } from '../events/objects';

export type ExpenseRow = Selectable<ExpenseClaimsTable>;
/**
 * A claim as its events make it: `status` is the fold of `events`, not the cached column, so a cache that went
 * wrong (a hand edit of the database) never decides a step nor shows on the claim's own page.
 */
export type ExpenseClaimRecord = ExpenseRow & { events: ExpenseEventRecord[] };
type CreateInput = v.InferOutput<typeof createExpenseRequestSchema>;
type UpdateInput = v.InferOutput<typeof updateExpenseRequestSchema>;
type Trx = Transaction<Database>;

export const expenseNotFound = () => new ApiError(404, 'expense_not_found');

/** The name a principal is shown by in claims and their timeline. */
function nameOf(principal: Principal): string {
  if (principal.kind === 'admin') return principal.username;
  if (principal.kind === 'apiKey') return principal.name;
  throw new Error('An anonymous visitor files nothing');
}

export const isExpenseOwner = (principal: Principal, row: Pick<ExpenseRow, 'created_by'>): boolean =>
  principal.kind !== 'anonymous' && row.created_by === creatorOf(principal);

/** Claims serialise their writes (transitions, edits, receipts) on one lock per claim, on every instance. */
export const lockExpense = (trx: Trx, id: string) => lockTransaction(trx, `expense:${id}`);

/** The claim if the caller may see it: the admin every claim, a key its own; anything else is not found. */
export async function visibleExpense(db: DB | Trx, principal: Principal, id: string): Promise<ExpenseClaimRecord> {
  let query = db.selectFrom('expense_claims').selectAll().where('id', '=', id);
  if (principal.kind !== 'admin') query = query.where('created_by', '=', creatorOf(principal));
  const row = await query.executeTakeFirst();
  if (!row) throw expenseNotFound();
  const events = await expenseEvents(db, id);
  return { ...row, status: foldExpenseEvents(events), events };
}

/** The caller's own claim, still editable (draft or rejected): what edits and receipt changes need. */
export async function editableExpense(db: DB | Trx, principal: Principal, id: string): Promise<ExpenseClaimRecord> {
  const row = await visibleExpense(db, principal, id);
  if (!isExpenseOwner(principal, row)) throw new ApiError(403, 'expense_owner_only');
  if (!canEditExpense(row.status)) throw statusConflict(row.status);
  return row;
}

async function assertClaimFields(deps: AppDeps, input: Partial<Pick<CreateInput, 'spent_on' | 'category'>>): Promise<void> {
  if (input.spent_on !== undefined && input.spent_on > latestSpentOn(deps.now())) {
    throw new ApiError(400, 'expense_future_date', {}, { field: 'spent_on', issue: 'future_date' });
  }
  if (input.category !== undefined && !(await readSettings(deps.db)).expense_categories.includes(input.category)) {
    throw new ApiError(400, 'expense_unknown_category', { category: input.category }, { field: 'category', issue: 'unknown_category' });
  }
}

const present = (row: ExpenseRow & { receipt_count: number | string | null }): ExpenseClaim => ({
  id: row.id,
  title: row.title,
  amount_minor: Number(row.amount_minor),
  currency: row.currency,
  spent_on: row.spent_on,
  category: row.category,
  description: row.description,
  status: row.status,
  created_by: row.created_by,
  owner_name: row.owner_name,
  receipt_count: Number(row.receipt_count ?? 0),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function createExpense(deps: AppDeps, principal: Principal, input: CreateInput): Promise<ExpenseClaimDetail> {
  await assertClaimFields(deps, input);
  const stamp = deps.now().toISOString();
  const claim = {
    id: randomUUID(),
    title: input.title,
    amount_minor: input.amount_minor,
    currency: input.currency,
    spent_on: input.spent_on,
    category: input.category,
    description: input.description,
    created_by: creatorOf(principal),
    owner_name: nameOf(principal),
    created_at: stamp,
    updated_at: stamp,
  };
  const status = await insertExpenseClaim(deps.db, claim);
  return { ...present({ ...claim, status, receipt_count: 0 }), receipts: [], events: [] };
}

export interface ExpenseFilter {
  status?: ExpenseStatus;
  limit: number;
  offset: number;
}

/** Newest first; the totals per currency cover the whole filter, not only this page. */
/** A claim row's number of receipts, as a column `receipt_count` of a query over `expense_claims`. */
export const receiptCount = (eb: ExpressionBuilder<Database, 'expense_claims'>) =>
  eb.selectFrom('expense_receipts').select(eb.fn.countAll<number>().as('n')).whereRef('expense_receipts.claim_id', '=', 'expense_claims.id').as('receipt_count');

export async function listExpenses(deps: AppDeps, principal: Principal, filter: ExpenseFilter): Promise<ExpenseList> {
  const { db } = deps;
  let base = db.selectFrom('expense_claims');
  if (principal.kind !== 'admin') base = base.where('created_by', '=', creatorOf(principal));
  if (filter.status) base = base.where('status', '=', filter.status);
  const [rows, totals] = await Promise.all([
    newestPage(
      base
        .selectAll()
        .select(receiptCount)
        // The admin's list is the review queue: claims awaiting review (submitted, processing) come first.
        .$if(principal.kind === 'admin', (query) => query.orderBy(sql`case when status in ('submitted', 'processing') then 0 else 1 end`)),
      db,
      filter.limit,
      filter.offset,
    ).execute(),
    base
      .select((eb) => ['currency', eb.fn.sum<number>('amount_minor').as('amount_minor'), eb.fn.countAll<number>().as('count')])
      .groupBy('currency')
      .orderBy('currency')
      .execute(),
  ]);
  const total = totals.reduce((sum, row) => sum + Number(row.count), 0);
  return {
    items: rows.map(present),
    pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + rows.length < total },
    totals: totals.map((row) => ({ currency: row.currency, amount_minor: Number(row.amount_minor), count: Number(row.count) })),
  };
}

/** The claim with its receipts and its timeline, oldest event first. */
export async function expenseDetail(db: DB | Trx, claim: ExpenseClaimRecord): Promise<ExpenseClaimDetail> {
  const receipts = await db
    .selectFrom('expense_receipts')
    .select(['id', 'filename', 'content_type', 'size', 'created_at'])
    .where('claim_id', '=', claim.id)
    .orderBy('created_at')
    .orderBy(insertionOrder(db))
    .execute();
  return {
    ...present({ ...claim, receipt_count: receipts.length }),
    receipts: receipts.map((receipt) => ({ ...receipt, content_type: receipt.content_type as ExpenseClaimDetail['receipts'][number]['content_type'], size: Number(receipt.size) })),
    events: claim.events,
  };
}

export async function getExpense(deps: AppDeps, principal: Principal, id: string): Promise<ExpenseClaimDetail> {
  return expenseDetail(deps.db, await visibleExpense(deps.db, principal, id));
}

export async function updateExpense(deps: AppDeps, principal: Principal, id: string, input: UpdateInput): Promise<ExpenseClaimDetail> {
  await assertClaimFields(deps, input);
  return deps.db.transaction().execute(async (trx) => {
    await lockExpense(trx, id);
    const claim = await editableExpense(trx, principal, id);
    // The status is no field of an edit: only an event changes it (expense-events.ts).
    const changes: Omit<Updateable<ExpenseClaimsTable>, 'status'> = { ...input, updated_at: deps.now().toISOString() };
    await trx.updateTable('expense_claims').set(changes).where('id', '=', id).execute();
    return expenseDetail(trx, { ...claim, ...changes } as ExpenseClaimRecord);
  });
}

/**
 * Fires one lifecycle event: the table in contract/expenses.ts decides whether it may happen and where it leads,
 * from the fold of the claim's events; appendExpenseEvent writes the event and the new fold under the claim's lock.
 */
export async function fireExpenseEvent(
  deps: AppDeps,
  principal: Principal,
  id: string,
  event: ExpenseEvent,
  note?: string,
): Promise<ExpenseClaimDetail> {
  const detail = await deps.db.transaction().execute(async (trx) => {
    await lockExpense(trx, id);
    const claim = await visibleExpense(trx, principal, id);
    if (!mayFireExpenseEvent(event, { owner: isExpenseOwner(principal, claim), admin: principal.kind === 'admin' })) {
      throw new ApiError(403, 'expense_owner_only');
    }
    const at = deps.now().toISOString();
    const step = (fired: ExpenseEvent, stepNote: string | null) =>
      appendExpenseEvent(trx, id, { event: fired, actor: creatorOf(principal), actorName: nameOf(principal), note: stepNote, at });
    // Steps the request implies (the review before a decision) come first; the note belongs to the decision.
    for (const implied of expenseStepsFor(claim.status, event).slice(0, -1)) await step(implied, null);
    const { status, events } = await step(event, note ? note : null);
    return expenseDetail(trx, { ...claim, status, events, updated_at: at });
  });
  if (event === 'submit') emitEvent(deps, 'expense.submitted', expenseObject(detail));
  if (event === 'approve' || event === 'reject') emitEvent(deps, 'expense.decided', expenseObject(detail));
  return detail;
}

/** Claims waiting for the admin: submitted or being processed (the dashboard's count). */
export async function countAwaitingReview(db: DB): Promise<number> {
  const row = await db
    .selectFrom('expense_claims')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', 'in', ['submitted', 'processing'])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
