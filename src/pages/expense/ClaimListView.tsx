import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Plus, ReceiptText } from 'lucide-react';
import { useCallback } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { EXPENSE_PAGE_SIZE, EXPENSE_STATUSES, type ExpenseStatus } from '../../../contract/expenses';
import type { ClaimViewer } from '../../../machines/expense-claim.machine';
import tableStyles from '../../components/DataTable.module.css';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { Pagination } from '../../components/Pagination';
import { ResourceStatus } from '../../components/ResourceStatus';
import { listExpenses } from '../../lib/api/expenses';
import { formatCalendarDate, formatCount, formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { ExportCsv } from './ExportCsv';
import { useExpenseText } from './expense-text';
import { StatusBadge } from './StatusBadge';
import styles from './Expense.module.css';

const isStatus = (value: string | null): value is ExpenseStatus => (EXPENSE_STATUSES as readonly (string | null)[]).includes(value);

/** The filter and page live in the address, so that back from a claim returns to the same list. */
function useListAddress() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const requested = search.get('status');
  const status = isStatus(requested) ? requested : undefined;
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const go = (next: { status?: ExpenseStatus; page: number }) => {
    const query = new URLSearchParams({ ...(next.status && { status: next.status }), ...(next.page > 1 && { page: String(next.page) }) });
    navigate(query.size > 0 ? `/expense?${query}` : '/expense');
  };
  return { status, page, go };
}

/** The viewer's claims (everyone's for the admin, with their owners): a status filter, totals per currency, pages. */
export function ClaimListView({ viewer }: { viewer: ClaimViewer }) {
  const { t, i18n } = useLingui();
  const text = useExpenseText();
  const { status, page, go } = useListAddress();
  const load = useCallback(() => listExpenses({ status, limit: EXPENSE_PAGE_SIZE, offset: (page - 1) * EXPENSE_PAGE_SIZE }), [status, page]);
  const list = useResource(load);
  const admin = viewer.role === 'admin';
  const data = list.data;

  return (
    <section>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{t`Expense claims`}</h1>
          <p className={styles.lead}>{admin ? t`Every claim filed, yours and the keys’, to review.` : t`The claims you filed, and where each one stands.`}</p>
        </div>
        <LinkButton href="/expense/new" variant="primary">
          <Plus size={17} aria-hidden />
          {t`New claim`}
        </LinkButton>
      </header>

      <div className={styles.toolbar}>
        <label className={styles.filter}>
          <span>{t`Status`}</span>
          <select value={status ?? ''} onChange={(event) => go({ status: isStatus(event.target.value) ? event.target.value : undefined, page: 1 })}>
            <option value="">{t`All`}</option>
            {EXPENSE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {text.status(value)}
              </option>
            ))}
          </select>
        </label>
        {admin && <ExportCsv status={status} />}
        {data && data.totals.length > 0 && (
          <ul className={styles.totals} aria-label={t`Totals`}>
            {data.totals.map(({ currency, amount_minor, count }) => (
              <li key={currency}>
                <strong>{currency}</strong> {text.money(amount_minor, currency)}{' '}
                <span className={tableStyles.muted}>{plural({ count }, { one: '(# claim)', other: '(# claims)' })}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {/* Reloading keeps the rows shown: the status only shows an empty state or a failure. */}
      <ResourceStatus resource={list} errorTitle={t`The claims could not be loaded`} />
      {data && data.items.length === 0 && (
        <Notice level={2} icon={<ReceiptText size={32} />} title={status ? t`No claims with this status` : t`No expense claims yet`}>
          {t`File a claim with its receipts, then submit it for review.`}
        </Notice>
      )}
      {data && data.items.length > 0 && (
        <>
          <div className={tableStyles.wrap}>
            <table className={tableStyles.table}>
              <thead>
                <tr>
                  <th scope="col">{t`Title`}</th>
                  <th scope="col">{t`Amount`}</th>
                  <th scope="col">{t`Date`}</th>
                  <th scope="col">{t`Category`}</th>
                  <th scope="col">{t`Status`}</th>
                  {admin && <th scope="col">{t`Owner`}</th>}
                  <th scope="col">{t`Receipts`}</th>
                  <th scope="col">{t`Updated`}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((claim) => (
                  <tr key={claim.id} data-claim-title={claim.title}>
                    <td data-label={t`Title`}>
                      <Link href={`/expense/${encodeURIComponent(claim.id)}`}>{claim.title}</Link>
                    </td>
                    <td data-label={t`Amount`} className={styles.amount}>
                      {text.money(claim.amount_minor, claim.currency)}
                    </td>
                    <td data-label={t`Date`}>{formatCalendarDate(claim.spent_on, i18n.locale)}</td>
                    <td data-label={t`Category`}>{text.category(claim.category)}</td>
                    <td data-label={t`Status`}>
                      <StatusBadge status={claim.status} />
                    </td>
                    {admin && <td data-label={t`Owner`}>{claim.owner_name}</td>}
                    <td data-label={t`Receipts`}>{formatCount(claim.receipt_count)}</td>
                    <td data-label={t`Updated`}>{formatDateTime(claim.updated_at, i18n.locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pageSize={EXPENSE_PAGE_SIZE} total={data.pagination.total} onPage={(next) => go({ status, page: next })} />
        </>
      )}
    </section>
  );
}
