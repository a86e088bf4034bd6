import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { isJobEnded, type Job } from '../../../../contract/jobs';
import { BreakableName } from '../../../components/BreakableName';
import { Button } from '../../../components/Button';
import { ProgressBar } from '../../../components/ProgressBar';
import { commandJob } from '../../../lib/api/jobs';
import { formatBytes } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { JOB_STATUS_LABELS, JOB_TYPE_LABELS } from './labels';
import { useWhoLabel } from './TransferRow';
import styles from './Tasks.module.css';

const STATUS_TONES = { queued: 'accent', running: 'accent', paused: 'accent', completed: 'success', partial: 'danger', failed: 'danger', cancelled: 'danger' } as const;

/** One server job: what moves where, its counts and bytes, cancel while it is not over, its failed items on demand. */
export function JobRow({ job }: { job: Job }) {
  const { t, i18n } = useLingui();
  const whoLabel = useWhoLabel();
  const [cancelling, setCancelling] = useState(false);
  const ended = isJobEnded(job.status);
  const percent = job.bytes.total > 0 ? Math.round((job.bytes.done / job.bytes.total) * 100) : 0;
  const cancel = async () => {
    setCancelling(true);
    try {
      await commandJob(job.id, 'cancel');
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setCancelling(false);
    }
  };
  return (
    <li className={styles.row} data-outcome={job.status}>
      <div className={styles.rowHead}>
        <span className={styles.name}>
          <BreakableName name={job.summary} />
        </span>
        <span className={styles.badge} data-tone={STATUS_TONES[job.status]}>
          {i18n._(JOB_STATUS_LABELS[job.status])}
        </span>
      </div>
      <p className={styles.meta}>
        {i18n._(JOB_TYPE_LABELS[job.type])} · {whoLabel(job.createdBy)}
        {job.currentItem && !ended ? ` · ${job.currentItem}` : ''}
      </p>
      <ProgressBar value={percent} label={t`Progress of ${job.summary}`} tone={STATUS_TONES[job.status]} live={!ended} />
      <p className={styles.figures}>
        <span>{t`${job.items.done} of ${job.items.total} files`}</span>
        <span>{t`${formatBytes(job.bytes.done)} of ${formatBytes(job.bytes.total)}`}</span>
        {!ended && job.speed !== null && <span>{t`${formatBytes(job.speed)}/s`}</span>}
      </p>
      {job.failures.length > 0 && (
        <details className={styles.failures}>
          <summary>{plural({ failed: job.items.failed }, { one: '# failed item', other: '# failed items' })}</summary>
          <ul>
            {job.failures.map((failure) => (
              <li key={failure.path}>
                <BreakableName name={failure.path} />: {failure.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {!ended && (
        <div className={styles.rowActions}>
          <Button size="small" variant="danger" onClick={() => void cancel()} disabled={cancelling}>
            {t`Cancel job`}
          </Button>
        </div>
      )}
    </li>
  );
}
