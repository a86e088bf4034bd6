import { useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ExpenseStatus } from '../../../contract/expenses';
import { useAppActors } from '../../app/actors';
import { Button } from '../../components/Button';
import { exportExpensesCsv } from '../../lib/api/expenses';
import { downloadBlob } from '../../lib/download';
import { toasts } from '../../lib/toast';
import styles from './Expense.module.css';

/** The admin's CSV export: the list's status filter, and a range of the dates spent (both ends included). */
export function ExportCsv({ status }: { status?: ExpenseStatus }) {
  const { t } = useLingui();
  const { auth } = useAppActors();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const csv = await exportExpensesCsv({ status, from: from || undefined, to: to || undefined }, auth.getSnapshot().context);
      downloadBlob(csv, 'expenses.csv');
    } catch {
      toasts.error(t`The export could not be made. Try again.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={styles.export} onSubmit={onSubmit} aria-label={t`Export to CSV`}>
      <label className={styles.filter}>
        <span>{t`From`}</span>
        <input type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} />
      </label>
      <label className={styles.filter}>
        <span>{t`To`}</span>
        <input type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
      </label>
      <Button type="submit" disabled={busy} aria-busy={busy}>
        <Download size={16} aria-hidden />
        {t`Export CSV`}
      </Button>
    </form>
  );
}
