import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { LOCAL_PROVIDER } from '../../../../contract/storage';
import type { DashboardStats } from '../../../../contract/files';
import { ProgressBar } from '../../../components/ProgressBar';
import { formatBytes } from '../../../lib/format';
import { useStorageName } from '../../../lib/use-storage-name';
import styles from './Dashboard.module.css';

type Bucket = DashboardStats['s3Buckets'][number];

/** Whole percent, or one decimal under 10 so that a little use does not read as none. */
const percentText = (percent: number) => (percent > 0 && percent < 10 ? percent.toFixed(1) : String(Math.round(percent)));

/**
 * One storage's use: what it holds and in how many files, and a bar. With a quota the bar is the quota's use; with
 * none, the storage's part of all bytes stored, so storages can be compared all the same.
 */
export function StorageUsage({ bucket, allBytes }: { bucket: Bucket; allBytes: number }) {
  const { t } = useLingui();
  const storageName = useStorageName();
  const name = storageName(bucket.name, bucket.providerType);
  const where = bucket.providerType === LOCAL_PROVIDER ? t`Server disk` : [bucket.providerType, bucket.bucketName].filter(Boolean).join(' · ');
  const quota = bucket.totalStorage;
  const percent = quota && bucket.usagePercent !== null ? bucket.usagePercent : allBytes > 0 ? (bucket.usedStorage / allBytes) * 100 : 0;
  const files = plural({ count: bucket.fileCount }, { one: '# file', other: '# files' });
  return (
    <li data-storage-name={bucket.name}>
      <div className={styles.bucketHead}>
        <strong>{name}</strong>
        <span className={styles.muted}>{where}</span>
      </div>
      <ProgressBar
        value={percent}
        label={quota ? t`Quota of ${name} used` : t`Share of all stored data in ${name}`}
        tone={quota && percent > 90 ? 'danger' : 'accent'}
      />
      <p className={styles.bucketFigures}>
        <span>
          {quota
            ? t`${formatBytes(bucket.usedStorage)} of ${formatBytes(quota)} (${percentText(percent)}%)`
            : t`${formatBytes(bucket.usedStorage)}, no quota`}
        </span>
        <span>{files}</span>
        {quota ? (
          <span>{t`${formatBytes(Math.max(0, quota - bucket.usedStorage))} free`}</span>
        ) : (
          <span>{t`${percentText(percent)}% of all stored`}</span>
        )}
      </p>
    </li>
  );
}
