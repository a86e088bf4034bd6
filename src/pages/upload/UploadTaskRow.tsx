import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { CheckCircle2, CircleAlert, RotateCcw, X } from 'lucide-react';
import type { FileShare } from '../../../contract/files';
import type { UploadStage } from '../../../contract/transfer';
import type { TaskActor } from '../../../machines/task.machine';
import { Button } from '../../components/Button';
import { ProgressBar } from '../../components/ProgressBar';
import { ShareLinkDisplay } from '../../components/share-link/ShareLinkDisplay';
import { fileShareUrl } from '../../lib/api/files';
import { formatBytes, formatDuration } from '../../lib/format';
import { describeTransferError } from '../../lib/transfer-errors';
import styles from './Upload.module.css';

/** One file of an upload: status, stage, progress with speed and time left, cancel or retry, then its link. */
export function UploadTaskRow({ task }: { task: TaskActor }) {
  const { t } = useLingui();
  const snapshot = useSelector(task, (state) => state);
  const { label, progress, stage, error, result } = snapshot.context;
  const status = String(snapshot.value);
  const stageText: Record<UploadStage, string> = {
    starting: t`Starting`,
    initializing: t`Preparing`,
    uploading: t`Uploading`,
    processing: t`Processing`,
    completing: t`Finishing`,
    completed: t`Done`,
  };
  const share = status === 'completed' ? (result as FileShare | undefined) : undefined;
  const statusText =
    status === 'running'
      ? t`${stage ? stageText[stage] : stageText.starting} ${progress.percent}%`
      : status === 'completed'
        ? t`Uploaded`
        : status === 'failed'
          ? t`Failed`
          : status === 'cancelled'
            ? t`Cancelled`
            : t`Waiting`;

  return (
    <li className={styles.taskRow} data-task-status={status} data-file-name={label}>
      <div className={styles.taskHead}>
        <span className={styles.taskName}>
          {status === 'completed' && <CheckCircle2 size={16} aria-hidden className={styles.ok} />}
          {status === 'failed' && <CircleAlert size={16} aria-hidden className={styles.bad} />}
          {label}
        </span>
        <span className={styles.taskMeta}>{formatBytes(progress.total || 0)}</span>
        <span className={styles.taskStatus} role="status">
          {statusText}
        </span>
        {status === 'running' && (
          <Button size="small" variant="ghost" aria-label={t`Cancel upload of ${label}`} onClick={() => task.send({ type: 'task.cancel' })}>
            <X size={15} aria-hidden />
          </Button>
        )}
        {(status === 'failed' || status === 'cancelled') && (
          <Button size="small" aria-label={t`Retry upload of ${label}`} onClick={() => task.send({ type: 'task.retry' })}>
            <RotateCcw size={15} aria-hidden />
          </Button>
        )}
      </div>
      {status === 'running' && (
        <>
          <ProgressBar value={progress.percent} label={t`Upload progress of ${label}`} />
          <span className={styles.taskMeta}>
            {progress.speed > 0 && t`${formatBytes(progress.speed)}/s`}
            {progress.secondsLeft !== null && ` · ${t`${formatDuration(progress.secondsLeft)} left`}`}
          </span>
        </>
      )}
      {status === 'failed' && error && (
        <p className={styles.taskError} role="alert">
          {describeTransferError(error)}
        </p>
      )}
      {share && <ShareLinkDisplay url={fileShareUrl(share.slug)} name={share.slug} />}
    </li>
  );
}
