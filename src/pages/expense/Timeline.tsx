import { useLingui } from '@lingui/react/macro';
import type { ExpenseEventRecord } from '../../../contract/expenses';
import { formatDateTime } from '../../lib/format';
import { useExpenseText } from './expense-text';
import styles from './Expense.module.css';

/** Every transition of the claim, oldest first: what happened, who did it, when, and the note they left. */
export function Timeline({ events }: { events: ExpenseEventRecord[] }) {
  const { t, i18n } = useLingui();
  const text = useExpenseText();
  if (events.length === 0) return <p className={styles.muted}>{t`Nothing has happened to this claim yet: it is a draft.`}</p>;
  return (
    <ol className={styles.timeline} aria-label={t`Timeline`}>
      {events.map((event) => {
        const from = text.status(event.from_status);
        const to = text.status(event.to_status);
        const who = event.actor_name;
        return (
          <li key={event.id} data-event={event.event} data-to-status={event.to_status}>
            <strong>{text.event(event.event)}</strong>
            <span className={styles.muted}>
              {t`${from} → ${to}`} · {t`by ${who}`} · <time dateTime={event.created_at}>{formatDateTime(event.created_at, i18n.locale)}</time>
            </span>
            {event.note && <blockquote className={styles.note}>{event.note}</blockquote>}
          </li>
        );
      })}
    </ol>
  );
}
