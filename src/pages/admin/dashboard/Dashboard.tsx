import { useLingui } from '@lingui/react/macro';
import { Activity, FileText, FolderOpen, HardDrive, KeyRound, Receipt, Workflow, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { getDashboardStats } from '../../../lib/api/files';
import { countRunningJobs } from '../../../lib/api/jobs';
import { formatBytes } from '../../../lib/format';
import { useResource } from '../../../lib/use-resource';
import styles from './Dashboard.module.css';
import { StorageUsage } from './StorageUsage';
import { WeekChart } from './WeekChart';

export default function Dashboard({ title }: { title: string }) {
  const { t } = useLingui();
  const stats = useResource(getDashboardStats);
  // Jobs have their own API: until it answers (or where it fails) the card shows a dash, not a wrong zero.
  const jobsRunning = useResource(countRunningJobs);
  if (!stats.data) return <ResourceStatus resource={stats} errorTitle={t`The figures could not be loaded`} />;
  const data = stats.data;
  const cards: { label: string; value: number | string; icon: LucideIcon; href?: string }[] = [
    { label: t`Text shares`, value: data.totalPastes, icon: FileText },
    { label: t`File uploads`, value: data.totalFiles, icon: FolderOpen },
    { label: t`API keys`, value: data.totalApiKeys, icon: KeyRound },
    { label: t`Storage configs`, value: data.totalS3Configs, icon: HardDrive },
    // The expense page is the admin's review queue: the count is work waiting there.
    { label: t`Claims awaiting review`, value: data.expensesAwaitingReview, icon: Receipt, href: '/expense' },
    { label: t`Jobs running`, value: jobsRunning.data ?? '—', icon: Workflow, href: '/admin/tasks' },
    { label: t`Transfers in flight`, value: data.transfersInFlight, icon: Activity, href: '/admin/tasks' },
  ];
  return (
    <section>
      <ModuleHeader title={title} description={t`${formatBytes(data.totalStorageUsed)} stored in all.`} />
      <ul className={styles.cards}>
        {cards.map(({ label, value, icon: Icon, href }) => {
          const body = (
            <>
              <Icon size={22} aria-hidden className={styles.cardIcon} />
              <span className={styles.cardValue}>{value}</span>
              <span className={styles.cardLabel}>{label}</span>
            </>
          );
          return (
            <li key={label}>
              {href ? (
                <Link href={href} className={`${styles.card} ${styles.cardLink}`}>
                  {body}
                </Link>
              ) : (
                <div className={styles.card}>{body}</div>
              )}
            </li>
          );
        })}
      </ul>
      <div className={styles.panels}>
        <section className={styles.panel} aria-labelledby="usage-title">
          <h3 id="usage-title">{t`Storage usage`}</h3>
          <dl className={styles.totals}>
            <div>
              <dt>{t`Stored`}</dt>
              <dd>{formatBytes(data.totalStorageUsed)}</dd>
            </div>
            <div>
              <dt>{t`Files`}</dt>
              <dd>{data.totalFiles}</dd>
            </div>
            <div>
              <dt>{t`Average file`}</dt>
              <dd>{data.totalFiles > 0 ? formatBytes(data.totalStorageUsed / data.totalFiles) : '—'}</dd>
            </div>
          </dl>
          {data.s3Buckets.length === 0 && <p className={styles.muted}>{t`No storage configured yet.`}</p>}
          <ul className={styles.buckets}>
            {data.s3Buckets.map((bucket) => (
              <StorageUsage key={bucket.id} bucket={bucket} allBytes={data.totalStorageUsed} />
            ))}
          </ul>
        </section>
        <section className={styles.panel} aria-labelledby="activity-title">
          <h3 id="activity-title">{t`Last 7 days`}</h3>
          <WeekChart pastes={data.lastWeekPastes} files={data.lastWeekFiles} />
        </section>
      </div>
    </section>
  );
}
