import type { ExpenseStatus } from '../../../contract/expenses';
import { useExpenseText } from './expense-text';
import styles from './Expense.module.css';

/** A claim's status, coloured by where it stands: to act on, waiting, done well, or sent back. */
export function StatusBadge({ status }: { status: ExpenseStatus }) {
  const text = useExpenseText();
  return (
    <span className={styles.status} data-status={status}>
      {text.status(status)}
    </span>
  );
}
