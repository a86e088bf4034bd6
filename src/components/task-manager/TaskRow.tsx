import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { CheckCircle2, CircleAlert, FileUp, RotateCcw, Trash2, X } from 'lucide-react';
import { useRef } from 'react';
import type { FileShare } from '../../../contract/files';
import type { FsItemsResult, TaskType, UploadStage } from '../../../contract/transfer';
import type { TaskActor } from '../../../machines/task.machine';
import { fileShareUrl } from '../../lib/api/files';
import { formatBytes, formatDuration } from '../../lib/format';
import { describeTransferError } from '../../lib/transfer-errors';
import { Button } from '../Button';
import { ProgressBar } from '../ProgressBar';
import { ShareLinkDisplay } from '../share-link/ShareLinkDisplay';
import styles from './TaskManager.module.css';

interface TaskRowProps {
  task: TaskActor;
  /** Show the finished upload's share link (the upload page); the task panel keeps rows short. */
  showShareLink?: boolean;
  onRemove?: () => void;
}

/** One task: status, stage, progress with speed and time left; cancel, retry, resume or remove; then its result. */
export function TaskRow({ task, showShareLink = false, onRemove }: TaskRowProps) {
  const { t } = useLingui();
  const snapshot = useSelector(task, (state) => state);
  const fileInput = useRef<HTMLInputElement>(null);
  const { label, progress, stage, error, result, counts, currentFile, type } = snapshot.context;
  const status = String(snapshot.value);
  /** A task over many items that ended partly done names the items that failed, and why. */
  const failedItems = type === 'upload' ? [] : ((result as FsItemsResult | undefined)?.failed ?? []);
  const stageText: Record<UploadStage, string> = {
    starting: t`Starting`,
    initializing: t`Preparing`,
    uploading: t`Uploading`,
    processing: t`Processing`,
    completing: t`Finishing`,
    completed: t`Done`,
    waitingForNetwork: t`Waiting for the network`,
  };
  const typeText: Record<TaskType, string> = { upload: t`Upload`, copy: t`Copy`, delete: t`Delete`, download: t`Download` };
  const share = status === 'completed' && type === 'upload' ? (result as FileShare | undefined) : undefined;
  const statusText =
    status === 'running'
      ? t`${stage ? stageText[stage] : stageText.starting} ${progress.percent}%`
      : status === 'completed'
        ? t`Completed`
        : status === 'partial'
          ? t`Partly done`
          : status === 'failed'
            ? t`Failed`
            : status === 'cancelled'
              ? t`Cancelled`
              : status === 'awaitingFile'
                ? t`Waiting for the file`
                : t`Waiting`;

  return (
    <li className={styles.row} data-task-status={status} data-file-name={label}>
      <div className={styles.head}>
        <span className={styles.name}>
          {status === 'completed' && <CheckCircle2 size={16} aria-hidden className={styles.ok} />}
          {(status === 'failed' || status === 'partial') && <CircleAlert size={16} aria-hidden className={styles.bad} />}
          <span className={styles.type}>{typeText[type]}</span>
          {label}
        </span>
        <span className={styles.meta}>{formatBytes(progress.total || 0)}</span>
        <span className={styles.status} role="status">
          {statusText}
        </span>
        {status === 'running' && (
          <Button size="small" variant="ghost" aria-label={t`Cancel ${label}`} onClick={() => task.send({ type: 'task.cancel' })}>
            <X size={15} aria-hidden />
          </Button>
        )}
        {(status === 'failed' || status === 'cancelled' || status === 'partial') && (
          <Button size="small" aria-label={t`Retry ${label}`} onClick={() => task.send({ type: 'task.retry' })}>
            <RotateCcw size={15} aria-hidden />
          </Button>
        )}
        {onRemove && status !== 'running' && (
          <Button size="small" variant="ghost" aria-label={t`Remove ${label} from the list`} onClick={onRemove}>
            <Trash2 size={15} aria-hidden />
          </Button>
        )}
      </div>
      {(status === 'running' || status === 'awaitingFile') && (
        <>
          <ProgressBar value={progress.percent} label={t`Progress of ${label}`} />
          {status === 'running' && (
            <span className={styles.meta}>
              {progress.speed > 0 && t`${formatBytes(progress.speed)}/s`}
              {progress.secondsLeft !== null && ` · ${t`${formatDuration(progress.secondsLeft)} left`}`}
            </span>
          )}
        </>
      )}
      {status === 'awaitingFile' && (
        <div className={styles.resume}>
          <span>{t`The page was reloaded. Pick the same file again to continue where the upload stopped.`}</span>
          <Button size="small" variant="primary" onClick={() => fileInput.current?.click()}>
            <FileUp size={15} aria-hidden />
            {t`Pick the file`}
          </Button>
          <input
            ref={fileInput}
            type="file"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t`Pick ${label} again`}
            data-testid={`resume-${label}`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) task.send({ type: 'task.fileProvided', file });
              event.target.value = '';
            }}
          />
        </div>
      )}
      {currentFile && status === 'running' && <span className={styles.meta}>{currentFile}</span>}
      {counts && (
        <span className={styles.meta}>{t`${counts.success} done, ${counts.skipped} skipped, ${counts.failed} failed`}</span>
      )}
      {status === 'partial' && failedItems.length > 0 && (
        <ul className={styles.error} aria-label={t`Failed items`}>
          {failedItems.map((item) => (
            <li key={item.path}>
              {item.path}: {describeTransferError(item.error)}
            </li>
          ))}
        </ul>
      )}
      {(status === 'failed' || status === 'partial') && error && (
        <p className={styles.error} role="alert">
          {describeTransferError(error)}
        </p>
      )}
      {share && showShareLink && <ShareLinkDisplay url={fileShareUrl(share.slug)} name={share.slug} />}
    </li>
  );
}
