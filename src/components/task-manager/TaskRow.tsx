import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { CheckCircle2, CircleAlert, Copy, CopyPlus, ExternalLink, FileUp, Pause, Play, RotateCcw, Trash2, X } from 'lucide-react';
import { memo, Suspense, useRef, useState } from 'react';
import type { FileShare } from '../../../contract/files';
import { isBatchPayload, isShareBatchResult, type BatchFile, type TaskType, type UploadStage } from '../../../contract/transfer';
import { conflictsOf, failedItemsOf, retryableFailures, type ItemCounts, type TaskActor } from '../../../machines/task.machine';
import { fileShareUrl } from '../../lib/api/files';
import { formatBytes } from '../../lib/format';
import { formatDuration } from '../../lib/format-short';
import { describeTransferError } from '../../lib/transfer-errors';
import { copyText } from '../../lib/clipboard';
import { toasts } from '../../lib/toast';
import { BreakableName } from '../BreakableName';
import { LazyConflictDialog } from './lazy-conflict-dialog';
import { Button } from '../Button';
import { LinkButton } from '../LinkButton';
import { ProgressBar } from '../ProgressBar';
import { ShareLinkDisplay } from '../share-link/ShareLinkDisplay';
import { VirtualList } from '../VirtualList';
import { sameText } from './progress-text';
import { ShareBatchLinks } from './ShareBatchLinks';
import styles from './TaskManager.module.css';

interface TaskRowProps {
  task: TaskActor;
  /** Show the finished upload's share link (the upload page); the task panel keeps rows short. */
  showShareLink?: boolean;
  /** Removes the task (by its id) from the list. */
  onRemove?: (id: string) => void;
}

type TaskSnapshot = ReturnType<TaskActor['getSnapshot']>;

/** Everything a row shows except its progress: it changes a few times per task, not with every progress update. */
const rowView = (state: TaskSnapshot) => {
  const { id, label, stage, error, result, counts, currentFile, type, progress, payload } = state.context;
  // Files into a mount folder, or files shared together: picked again as a folder or as files after a reload.
  const batch = isBatchPayload(payload) ? payload : undefined;
  return { id, label, stage, error, result, counts, currentFile, type, total: progress.total, status: String(state.value), fromFolder: batch?.fromFolder, isBatch: Boolean(batch), canPause: state.can({ type: 'task.pause' }) };
};

/** Files picked again for a batch: a folder's keep their path inside it, as when they were first picked. */
const batchFilesOf = (list: FileList): BatchFile[] => [...list].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));

/** Height of one failed item's line, in px, where there are too many to show whole. */
const FAILED_ROW_PX = 24;
/** Up to this many failures are listed whole, their paths wrapped; more are windowed, one cut line each. */
const FAILURES_SHOWN_WHOLE = 50;
type FailedItem = ReturnType<typeof failedItemsOf>[number];

function sameFields<T extends Record<string, unknown>>(a: T, b: T): boolean {
  return Object.keys(a).every((key) => Object.is(a[key], b[key]));
}

/**
 * One task: status, stage, progress with speed and time left; cancel, retry, resume or remove; then its result.
 * A progress update renders only the row's progress parts (the percent, the bar, speed and time left), never the
 * row itself or the other rows.
 */
export const TaskRow = memo(function TaskRow({ task, showShareLink = false, onRemove }: TaskRowProps) {
  const { t } = useLingui();
  const { id, label, stage, error, result, counts, currentFile, type, total, status, fromFolder, isBatch, canPause } = useSelector(task, rowView, sameFields);
  const fileInput = useRef<HTMLInputElement>(null);
  const [deciding, setDeciding] = useState(false);
  /** A task over many items that ended partly done names the items that failed, and why. */
  const failedItems = failedItemsOf(result);
  /** Only failures another try may mend are retried: a refusal for what the item is would fail the same way. */
  const retryable = status !== 'partial' || retryableFailures(result).length > 0;
  const conflicts = status === 'awaitingDecision' ? conflictsOf(result).length : 0;
  const typeText: Record<TaskType, string> = { upload: t`Upload`, copy: t`Copy`, move: t`Move`, delete: t`Delete`, download: t`Download`, sync: t`Sync` };
  /** A finished file share (an upload into a mount answers its path instead). */
  const share = status === 'completed' && typeof (result as Partial<FileShare> | undefined)?.slug === 'string' ? (result as FileShare) : undefined;
  /** Files shared together: the shares of those done, once the batch ended (partly done or not). */
  const batchShares = (status === 'completed' || status === 'partial') && isShareBatchResult(result) && result.shares.length > 0 ? result.shares : undefined;
  const statusText =
    status === 'completed'
      ? t`Completed`
      : status === 'partial'
        ? t`Partly done`
        : status === 'failed'
          ? t`Failed`
          : status === 'cancelled'
            ? t`Cancelled`
            : status === 'paused'
              ? t`Paused`
              : status === 'awaitingFile'
                ? isBatch
                  ? t`Waiting for the files`
                  : t`Waiting for the file`
                : status === 'awaitingDecision'
                  ? t`Waiting for your choice`
                  : t`Waiting`;

  return (
    <li className={styles.row} data-task-status={status} data-task-type={type} data-file-name={label}>
      <div className={styles.head}>
        <span className={styles.name}>
          {status === 'completed' && <CheckCircle2 size={16} aria-hidden className={styles.ok} />}
          {(status === 'failed' || status === 'partial') && <CircleAlert size={16} aria-hidden className={styles.bad} />}
          <span className={styles.type}>{typeText[type]}</span>
          <span className={styles.label}>
            <BreakableName name={label} />
          </span>
        </span>
        <span className={styles.meta}>{formatBytes(total || 0)}</span>
        <span className={styles.status} role="status">
          {status === 'running' ? <RunningStatus task={task} stage={stage} /> : statusText}
        </span>
        {canPause && (
          <Button size="small" variant="ghost" aria-label={t`Pause ${label}`} onClick={() => task.send({ type: 'task.pause' })}>
            <Pause size={15} aria-hidden />
          </Button>
        )}
        {status === 'paused' && (
          <Button size="small" aria-label={t`Resume ${label}`} onClick={() => task.send({ type: 'task.resume' })}>
            <Play size={15} aria-hidden />
          </Button>
        )}
        {(status === 'running' || status === 'paused') && (
          <Button size="small" variant="ghost" aria-label={t`Cancel ${label}`} onClick={() => task.send({ type: 'task.cancel' })}>
            <X size={15} aria-hidden />
          </Button>
        )}
        {status === 'awaitingDecision' && (
          <Button size="small" variant="ghost" aria-label={t`Cancel ${label}`} onClick={() => task.send({ type: 'task.cancel' })}>
            <X size={15} aria-hidden />
          </Button>
        )}
        {(status === 'failed' || status === 'cancelled' || status === 'partial') && retryable && (
          <Button
            size="small"
            aria-label={status === 'partial' ? t`Retry the failed items of ${label}` : t`Retry ${label}`}
            onClick={() => task.send({ type: 'task.retry' })}
          >
            <RotateCcw size={15} aria-hidden />
            {status === 'partial' && t`Retry failed`}
          </Button>
        )}
        {onRemove && status !== 'running' && status !== 'paused' && (
          <Button size="small" variant="ghost" aria-label={t`Remove ${label} from the list`} onClick={() => onRemove(id)}>
            <Trash2 size={15} aria-hidden />
          </Button>
        )}
      </div>
      {(status === 'running' || status === 'awaitingFile' || status === 'paused') && <TaskProgress task={task} label={label} running={status === 'running'} />}
      {status === 'awaitingFile' && isBatch && (
        <div className={styles.resume}>
          <span>
            {fromFolder
              ? t`The page was reloaded. Pick the same folder again to send the files not yet uploaded.`
              : t`The page was reloaded. Pick the same files again to send those not yet uploaded.`}
          </span>
          <Button size="small" variant="primary" onClick={() => fileInput.current?.click()}>
            <FileUp size={15} aria-hidden />
            {fromFolder ? t`Pick the folder` : t`Pick the files`}
          </Button>
          <input
            ref={fileInput}
            type="file"
            multiple
            {...(fromFolder && { webkitdirectory: '' })}
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t`Pick the files of ${label} again`}
            data-testid={`resume-${label}`}
            onChange={(event) => {
              const list = event.target.files;
              if (list && list.length > 0) task.send({ type: 'task.filesProvided', files: batchFilesOf(list) });
              event.target.value = '';
            }}
          />
        </div>
      )}
      {status === 'awaitingFile' && !isBatch && (
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
      {status === 'awaitingDecision' && (
        <div className={styles.resume}>
          <span>{t`${conflicts} names already exist where they go. Nothing was written over them.`}</span>
          <Button size="small" variant="primary" onClick={() => setDeciding(true)}>
            <CopyPlus size={15} aria-hidden />
            {t`Choose what to do`}
          </Button>
          {deciding && (
            <Suspense fallback={null}>
              <LazyConflictDialog task={task} onClose={() => setDeciding(false)} />
            </Suspense>
          )}
        </div>
      )}
      {currentFile && status === 'running' && <span className={styles.meta}>{currentFile}</span>}
      {counts && <ItemCountsText counts={counts} />}
      {batchShares && <ShareBatchLinks shares={batchShares} label={label} />}
      {status === 'partial' && failedItems.length > 0 && <FailedItems items={failedItems} />}
      {(status === 'failed' || status === 'partial') && error && (
        <p className={styles.error} role="alert">
          {describeTransferError(error)}
        </p>
      )}
      {share && showShareLink && <ShareLinkDisplay url={fileShareUrl(share.slug)} name={share.slug} />}
      {share && !showShareLink && (
        <div className={styles.resume}>
          <Button
            size="small"
            aria-label={t`Copy the link of ${label}`}
            onClick={async () => {
              if (await copyText(fileShareUrl(share.slug))) toasts.success(t`Link copied`);
            }}
          >
            <Copy size={15} aria-hidden />
            {t`Copy link`}
          </Button>
          <LinkButton size="small" href={`/file/${encodeURIComponent(share.slug)}`} aria-label={t`Open the share of ${label}`}>
            <ExternalLink size={15} aria-hidden />
            {t`Open`}
          </LinkButton>
        </div>
      )}
    </li>
  );
});

/** "12 done (2 replaced, 1 kept both), 3 skipped, 0 failed": what became of each item of the task. */
function ItemCountsText({ counts }: { counts: ItemCounts }) {
  const { t } = useLingui();
  const { success, skipped, failed, replaced = 0, renamed = 0 } = counts;
  const how = [replaced > 0 && t`${replaced} replaced`, renamed > 0 && t`${renamed} kept both`].filter(Boolean).join(', ');
  return <span className={styles.meta}>{how ? t`${success} done (${how}), ${skipped} skipped, ${failed} failed` : t`${success} done, ${skipped} skipped, ${failed} failed`}</span>;
}

const selectProgress = (state: TaskSnapshot) => state.context.progress;

/** "Uploading 42%": the running row's status, rendered again only when its stage or its text figures change. */
function RunningStatus({ task, stage = 'starting' }: { task: TaskActor; stage: UploadStage | undefined }) {
  const { t } = useLingui();
  const { percent } = useSelector(task, selectProgress, sameText);
  // Only the stage shown is translated: this renders about once a second during a transfer.
  const stageText =
    stage === 'initializing'
      ? t`Preparing`
      : stage === 'uploading'
        ? t`Uploading`
        : stage === 'processing'
          ? t`Processing`
          : stage === 'completing'
            ? t`Finishing`
            : stage === 'completed'
              ? t`Done`
              : stage === 'waitingForNetwork'
                ? t`Waiting for the network`
                : stage === 'resendingLost'
                  ? t`Sending lost parts again`
                  : t`Starting`;
  return t`${stageText} ${percent}%`;
}

/** The bar, and for a running task its speed and time left: the only parts of a row that progress updates render. */
function TaskProgress({ task, label, running }: { task: TaskActor; label: string; running: boolean }) {
  const { t } = useLingui();
  const percent = useSelector(task, (state) => state.context.progress.percent);
  return (
    <>
      <ProgressBar value={percent} label={t`Progress of ${label}`} live />
      {running && <TransferFigures task={task} />}
    </>
  );
}

/** Speed and time left, rendered again only when the worker works them out afresh (once a second). */
function TransferFigures({ task }: { task: TaskActor }) {
  const { t } = useLingui();
  const { speed, secondsLeft } = useSelector(task, selectProgress, sameText);
  return (
    <span className={styles.meta}>
      {speed > 0 && t`${formatBytes(speed)}/s`}
      {secondsLeft !== null && ` · ${t`${formatDuration(secondsLeft)} left`}`}
    </span>
  );
}

/**
 * What failed, and why. A few are listed whole, long paths wrapped; a long list is windowed, one line each, and
 * "Copy the list" gives every whole line to paste elsewhere.
 */
function FailedItems({ items }: { items: FailedItem[] }) {
  const { t } = useLingui();
  const line = (item: FailedItem) => `${item.path}: ${describeTransferError(item.error)}`;
  const copyAll = async () => {
    if (await copyText(items.map(line).join('\n'))) toasts.success(t`List of failures copied`);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };
  return (
    <div className={styles.error}>
      {items.length <= FAILURES_SHOWN_WHOLE ? (
        <ul className={styles.failures} aria-label={t`Failed items`}>
          {items.map((item) => (
            <li key={item.path}>{line(item)}</li>
          ))}
        </ul>
      ) : (
        <VirtualList items={items} rowHeight={FAILED_ROW_PX} maxHeight={FAILED_ROW_PX * 8} label={t`Failed items`} itemKey={(item) => item.path}>
          {(item) => <span title={line(item)}>{line(item)}</span>}
        </VirtualList>
      )}
      <Button size="small" onClick={() => void copyAll()}>
        <Copy size={15} aria-hidden />
        {t`Copy the list`}
      </Button>
    </div>
  );
}
