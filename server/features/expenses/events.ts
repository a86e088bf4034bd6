import { randomUUID } from 'node:crypto';
import type { Insertable, Transaction } from 'kysely';
import { foldExpenseEvents, nextExpenseStatus, type ExpenseEvent, type ExpenseEventRecord, type ExpenseStatus } from '../../../contract/expenses';
import type { DB } from '../../db/database';
import { insertionOrder } from '../../db/dialect';
import type { Database, ExpenseClaimsTable } from '../../db/schema';
import { ApiError } from '../../errors';

/*
 * A claim's status is the fold of its events (contract/expenses.ts). `expense_claims.status` is a cache of that fold
 * for lists, their status filter and totals, the review count and the CSV export. This module is the only writer
 * of the cache: with the claim's row, and with each event in the event's own transaction.
 */

type Trx = Transaction<Database>;

/** 409 with the claim's current status: the lifecycle table has no such step from there. */
export const statusConflict = (status: ExpenseStatus) => new ApiError(409, 'expense_status_conflict', { status }, { status });

/** The claim's events, oldest first: the order the fold reads them in. */
export function expenseEvents(db: DB | Trx, claimId: string): Promise<ExpenseEventRecord[]> {
  return db
    .selectFrom('expense_events')
    .select(['id', 'event', 'from_status', 'to_status', 'actor', 'actor_name', 'note', 'created_at'])
    .where('claim_id', '=', claimId)
    .orderBy('created_at')
    .orderBy(insertionOrder(db))
    .execute();
}

/** Files a new claim: no events yet, so its cached status is the fold of none. */
export async function insertExpenseClaim(db: DB, claim: Omit<Insertable<ExpenseClaimsTable>, 'status'>): Promise<ExpenseStatus> {
  const status = foldExpenseEvents([]);
  await db.insertInto('expense_claims').values({ ...claim, status }).execute();
  return status;
}

export interface ExpenseStep {
  event: ExpenseEvent;
  /** `admin` or `apikey:<id>`, and the name it goes by now. */
  actor: string;
  actorName: string;
  note: string | null;
  at: string;
}

/**
 * The one way a claim's status changes: appends the step to the claim's events and caches the fold of them all,
 * in `trx`, which must hold the claim's lock (expenses.ts lockExpense) so no other step lands in between. A step
 * the table refuses from the folded status is a 409 that writes nothing.
 */
export async function appendExpenseEvent(
  trx: Trx,
  claimId: string,
  step: ExpenseStep,
): Promise<{ status: ExpenseStatus; events: ExpenseEventRecord[] }> {
  const history = await expenseEvents(trx, claimId);
  const from = foldExpenseEvents(history);
  const to = nextExpenseStatus(from, step.event);
  if (to === undefined) throw statusConflict(from);
  const record: ExpenseEventRecord = {
    id: randomUUID(),
    event: step.event,
    from_status: from,
    to_status: to,
    actor: step.actor,
    actor_name: step.actorName,
    note: step.note,
    created_at: step.at,
  };
  const events = [...history, record];
  const status = foldExpenseEvents(events);
  await trx.insertInto('expense_events').values({ ...record, claim_id: claimId }).execute();
  await trx.updateTable('expense_claims').set({ status, updated_at: step.at }).where('id', '=', claimId).execute();
  return { status, events };
}
