import { uploadMimeType, type FileShare } from '../../contract/files';
import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { BatchFile, FileShareUpload, JournalTask, ShareBatchEntry, ShareBatchResult, ShareBatchUpload, TransferError } from '../../contract/transfer';
import { cancelled } from '../engine/failure';
import { classifyFailure } from '../engine/retry';
import { BATCH_LANES, largeFileTaskId } from './fs-batch-upload';
import { BatchProgress } from './batch-progress';
import { allFailed, inLanes, isCancelled, itemReporter } from './fs-items';
import { shareMultipartJob } from './multipart-protocol';
import { multipartUpload, type MultipartContext, type MultipartJob } from './multipart-upload';
import { sharedCopyOf } from './image-privacy';
import { presignedUpload, type PipelineContext } from './presigned-upload';

export interface ShareBatchJob extends Omit<ShareBatchUpload, 'label'> {
  /** Files (by key) the journal recorded as shared: never sent again. */
  done: ReadonlySet<string>;
  /** Their shares, as the journal recorded them. */
  shares: readonly ShareBatchEntry[];
  /** Files of the batch the browser no longer has (not picked again after a reload): they fail as such. */
  missing?: string[];
}

export interface ShareBatchHooks {
  /** Records a file's share, before it counts as done (the journal's `itemsDone` with `shares`). */
  shared(entry: ShareBatchEntry): Promise<void>;
  /** The journal's record of a large file's own upload, to resume its parts. */
  resumeOf(taskId: string): Promise<JournalTask | undefined>;
  /** A large file's own upload finished: its record is no longer needed. */
  finishedLarge(taskId: string): Promise<void>;
}

/** How one file of the batch becomes a share: the engine's single-file paths (replaced in tests). */
export interface ShareTransport {
  /** A file up to the multipart threshold: presign, one PUT, commit. */
  small(command: FileShareUpload, context: PipelineContext): Promise<FileShare>;
  /** A larger file in parts, as its own journal record (so that its parts resume). */
  large(job: MultipartJob<FileShare>, context: MultipartContext): Promise<FileShare>;
}

export const SHARE_TRANSPORT: ShareTransport = { small: presignedUpload, large: multipartUpload };

/**
 * Files shared together, as one task: each through the single-file paths (a presigned PUT, or parts above the
 * multipart threshold) with the batch's storage and share options, BATCH_LANES files at a time. A small file's
 * lane holds a slot of the shared scheduler while it is sent; a large file's parts take slots as any upload's do.
 * A file that fails for a passing reason is tried again (offline: once the network is back); one that fails for
 * good does not stop the others. Progress counts only bytes the storage acknowledged, over the whole batch; offline,
 * the batch says it waits for the network and its figures stop. Each finished file's share is recorded (`shared`)
 * before it counts as done, so that a pause, a retry or a reload never sends it again.
 */
export async function shareBatchUpload(
  job: ShareBatchJob,
  context: MultipartContext,
  hooks: ShareBatchHooks,
  transport: ShareTransport = SHARE_TRANSPORT,
): Promise<ShareBatchResult> {
  const { taskId, signal } = { taskId: job.taskId, signal: context.signal };
  const result: ShareBatchResult = { succeeded: [...job.done], skipped: [], failed: [], shares: [] };
  result.failed.push(...(job.missing ?? []).filter((path) => !job.done.has(path)).map((path) => ({ path, error: { code: 'file_mismatch' } satisfies TransferError })));
  const shares = new Map(job.shares.filter((entry) => job.done.has(entry.path)).map((entry) => [entry.path, entry]));
  const queue = job.files.filter((entry) => !job.done.has(entry.relativePath));
  const progress = new BatchProgress(taskId, context, job.files, job.done);
  const report = itemReporter(taskId, context.emit, 0, result, { signal, progressInBytes: true });
  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  report(queue[0]?.relativePath ?? '');
  progress.show();

  /** A file's own pipeline reports into the batch: its acknowledged bytes, and its waits for the network. */
  const fileContext = (key: string): MultipartContext => ({
    ...context,
    emit: (event) => {
      if (event.type === 'engine.progress') progress.partly(key, event.progress.loaded);
      else if (event.type === 'engine.stage') progress.fileStage(key, event.stage);
    },
  });

  const sendOnce = async (entry: BatchFile): Promise<FileShare> => {
    const { relativePath } = entry;
    const file = await sharedCopyOf(entry.file, job.options.strip_metadata);
    const mimetype = uploadMimeType(file.name, file.type);
    const config = job.storageConfigId ? { storageConfigId: job.storageConfigId } : {};
    // Never a custom slug: that is for one file alone.
    const options = { ...job.options, slug: undefined };
    const sub = fileContext(relativePath);
    if (file.size > MULTIPART_THRESHOLD) {
      const subId = largeFileTaskId(taskId, relativePath);
      const resume = await hooks.resumeOf(subId);
      const multipart = shareMultipartJob({ taskId: subId, api: job.api, transport: context.transport, source: file, label: file.name, mimetype, ...config, options, family: 's3', batchOf: taskId, ...(resume && { resume }) });
      const share = await transport.large(multipart, sub);
      await hooks.finishedLarge(subId);
      return share;
    }
    const release = await context.scheduler.acquire(taskId, signal);
    try {
      return await transport.small({ taskId, api: job.api, file, mimetype, ...config, options }, sub);
    } finally {
      release();
    }
  };

  /** A file, tried again as a part would be: after 429, 5xx and network errors with back-off, offline once back online. */
  const send = async (entry: BatchFile): Promise<FileShare> => {
    let retries = 0;
    for (;;) {
      let failure: TransferError;
      try {
        return await sendOnce(entry);
      } catch (error) {
        failure = error as TransferError;
      } finally {
        progress.partly(entry.relativePath, undefined);
      }
      if (signal.aborted || isCancelled(failure)) throw cancelled();
      const decision = classifyFailure(failure.status !== undefined ? { status: failure.status } : { code: failure.code }, retries, context.online());
      if (decision.action === 'pause') await progress.waitForNetwork();
      else if (decision.action === 'backoff') {
        retries++;
        await context.sleep(decision.delayMs, signal);
      } else throw failure;
    }
  };

  let next = 0;
  const lane = async () => {
    for (let entry = queue[next++]; entry; entry = queue[next++]) {
      report(entry.relativePath);
      try {
        const share = await send(entry);
        const record: ShareBatchEntry = { path: entry.relativePath, share };
        await hooks.shared(record);
        progress.acknowledge(entry.file.size);
        shares.set(record.path, record);
        result.succeeded.push(record.path);
      } catch (error) {
        if (isCancelled(error) || signal.aborted) throw cancelled();
        result.failed.push(...allFailed([entry.relativePath], error));
      }
      // The counts move as files end (a report held back goes out within its interval), not only as the next starts.
      report(entry.relativePath);
      progress.show();
    }
  };
  try {
    await inLanes(Math.min(BATCH_LANES, queue.length), lane);
  } finally {
    progress.end(false);
    context.scheduler.finish(taskId);
  }
  const order = new Map(job.files.map((entry, index) => [entry.relativePath, index]));
  result.shares = [...shares.values()].sort((a, b) => (order.get(a.path) ?? Infinity) - (order.get(b.path) ?? Infinity));
  report(queue.at(-1)?.relativePath ?? '', true);
  progress.end(true);
  return result;
}
