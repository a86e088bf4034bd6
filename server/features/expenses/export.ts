import { formatMinorUnits, type ExpenseStatus } from '../../../contract/expenses';
import { csvLine } from '../../csv';
import type { DB } from '../../db/database';
import { insertionOrder } from '../../db/dialect';
import { receiptCount } from './expenses';

export interface ExpenseExportFilter {
  status?: ExpenseStatus;
  /** `spent_on` bounds, both inclusive. */
  from?: string;
  to?: string;
}

const COLUMNS = ['id', 'spent_on', 'title', 'category', 'amount', 'currency', 'status', 'owner', 'description', 'receipts', 'created_at', 'updated_at'];

/** Every claim of the filter, oldest spending first, amounts in major units beside their currency. */
export async function exportExpensesCsv(db: DB, filter: ExpenseExportFilter): Promise<string> {
  let query = db
    .selectFrom('expense_claims')
    .selectAll()
    .select(receiptCount);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.from) query = query.where('spent_on', '>=', filter.from);
  if (filter.to) query = query.where('spent_on', '<=', filter.to);
  const rows = await query.orderBy('spent_on').orderBy('created_at').orderBy(insertionOrder(db)).execute();
  return (
    csvLine(COLUMNS) +
    rows
      .map((row) =>
        csvLine([
          row.id,
          row.spent_on,
          row.title,
          row.category,
          formatMinorUnits(Number(row.amount_minor), row.currency),
          row.currency,
          row.status,
          row.owner_name,
          row.description,
          String(Number(row.receipt_count ?? 0)),
          row.created_at,
          row.updated_at,
        ]),
      )
      .join('')
  );
}
