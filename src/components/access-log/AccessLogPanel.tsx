import { useLingui } from '@lingui/react/macro';
import Download from 'lucide-react/icons/download';
import { useCallback, useState } from 'react';
import { ACCESS_LOG_PAGE_SIZE, type AccessLogDay, type AccessLogEntry } from '../../../contract/access-log';
import { accessLogCsv, getAccessLog, type LoggedShares } from '../../lib/api/access-log';
import { downloadBlob } from '../../lib/download';
import { formatBytes, formatCount, formatDateTime } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { useResource } from '../../lib/use-resource';
import { Button } from '../Button';
import tableStyles from '../DataTable.module.css';
import { Pagination } from '../Pagination';
import { ResourceStatus } from '../ResourceStatus';
import styles from './AccessLogPanel.module.css';

/**
 * A share's access log on its page, for its owner (the admin, or the key that made it): when it was last opened,
 * views and peeks by day, each access newest first in pages, and the whole log as CSV.
 */
export default function AccessLogPanel({ shares, slug }: { shares: LoggedShares; slug: string }) {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const load = useCallback(() => getAccessLog(shares, slug, ACCESS_LOG_PAGE_SIZE, (page - 1) * ACCESS_LOG_PAGE_SIZE), [shares, slug, page]);
  const log = useResource(load);
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadBlob(await accessLogCsv(shares, slug), `access-log-${slug}.csv`);
    } catch {
      toasts.error(t`The export could not be made. Try again.`);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className={styles.panel} aria-labelledby="access-log-title">
      <header className={styles.head}>
        <h2 id="access-log-title" className={styles.title}>{t`Access log`}</h2>
        <Button size="small" onClick={exportCsv} disabled={exporting} aria-busy={exporting}>
          <Download size={15} aria-hidden />
          {t`Export CSV`}
        </Button>
      </header>
      <ResourceStatus resource={log} errorTitle={t`The access log could not be loaded`} lines={3} />
      {log.data && (
        <>
          <p className={styles.lastOpened} data-testid="last-opened">
            {log.data.lastOpenedAt ? t`Last opened ${formatDateTime(log.data.lastOpenedAt, i18n.locale)}` : t`Not opened yet`}
          </p>
          {log.data.days.length > 0 && <DayCounts days={log.data.days} />}
          {log.data.items.length === 0 ? (
            <p className={tableStyles.muted}>{t`Nobody has viewed or peeked at this share yet.`}</p>
          ) : (
            <AccessTable items={log.data.items} />
          )}
          {log.data.pagination.total > ACCESS_LOG_PAGE_SIZE && (
            <Pagination page={page} pageSize={ACCESS_LOG_PAGE_SIZE} total={log.data.pagination.total} onPage={setPage} />
          )}
        </>
      )}
    </section>
  );
}

/** Views and peeks of each UTC day with an access, newest first, each with a bar scaled to the busiest day. */
function DayCounts({ days }: { days: AccessLogDay[] }) {
  const { t } = useLingui();
  const most = Math.max(1, ...days.map((day) => day.views + day.peeks));
  return (
    <div className={tableStyles.wrap}>
      <table className={`${tableStyles.table} ${styles.days}`} aria-label={t`Accesses by day (UTC)`}>
        <thead>
          <tr>
            <th scope="col">{t`Day (UTC)`}</th>
            <th scope="col">{t`Views`}</th>
            <th scope="col">{t`Peeks`}</th>
            <th scope="col">
              <span className="visually-hidden">{t`Accesses as a bar`}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {[...days].reverse().map((day) => (
            <tr key={day.day}>
              <td data-label={t`Day (UTC)`}>{day.day}</td>
              <td data-label={t`Views`}>{formatCount(day.views)}</td>
              <td data-label={t`Peeks`}>{formatCount(day.peeks)}</td>
              <td className={styles.barCell}>
                <span aria-hidden className={styles.bar} style={{ inlineSize: `${((day.views + day.peeks) / most) * 100}%` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AccessTable({ items }: { items: AccessLogEntry[] }) {
  const { t, i18n } = useLingui();
  return (
    <div className={tableStyles.wrap}>
      <table className={`${tableStyles.table} ${tableStyles.oneLine}`} aria-label={t`Accesses, newest first`}>
        <thead>
          <tr>
            <th scope="col">{t`Time`}</th>
            <th scope="col">{t`Kind`}</th>
            <th scope="col">{t`Address`}</th>
            <th scope="col">{t`Sent`}</th>
            <th scope="col" className={tableStyles.fill}>
              {t`Browser`}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((entry, index) => (
            <tr key={`${entry.at}-${index}`} data-kind={entry.kind}>
              <td data-label={t`Time`}>{formatDateTime(entry.at, i18n.locale)}</td>
              <td data-label={t`Kind`}>
                {entry.kind === 'view' ? t`View` : t`Peek`}
                {entry.count > 1 && <span className={tableStyles.badge} title={t`${formatCount(entry.count)} alike within one second`}>×{formatCount(entry.count)}</span>}
              </td>
              <td data-label={t`Address`}>
                <code>{entry.ip || t`Unknown`}</code>
              </td>
              <td data-label={t`Sent`}>
                {entry.kind === 'peek' ? '—' : formatBytes(entry.bytes)}
                {!entry.completed && <span className={`${tableStyles.badge} ${styles.cut}`}>{t`Cut off`}</span>}
              </td>
              <td data-label={t`Browser`} className={tableStyles.fill}>
                <span className={tableStyles.value} title={entry.userAgent}>
                  {entry.userAgent || t`Unknown`}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
