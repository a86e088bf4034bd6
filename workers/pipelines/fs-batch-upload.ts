import type { FsUploadBatchResult } from '../../contract/fs';
import type { ApiAccess, BatchFile, FsItemsResult, TransferError } from '../../contract/transfer';
import { cancelled } from '../engine/failure';
import { planBatch, type BatchUnit } from '../planner/batch';
import { apiFailure } from '../transport/api';
import { BatchProgress } from './batch-progress';
import { postFormWithRetries } from './form-post';
import { allFailed, emptyItemsResult, inLanes, isCancelled, itemReporter } from './fs-items';
import { fsUpload } from './fs-upload';
import { fsBase } from './multipart-protocol';
import type { MultipartContext } from './multipart-upload';

/** Requests of one batch in flight (each also holds a slot of the shared scheduler while it is). */
export const BATCH_LANES = 3;

export interface BatchJob {
  taskId: string;
  api: ApiAccess;
  /** The mount folder, ending in `/`. */
  folder: string;
  files: BatchFile[];
  /** Relative paths the journal saw acknowledged: never sent again. */
  done: ReadonlySet<string>;
  /** Files of the batch the browser no longer has (not picked again after a reload): they fail as such. */
  missing?: string[];
}

/** What the batch's large files are uploaded as: their own journal task, so that their parts resume. */
export const largeFileTaskId = (batchId: string, relativePath: string) => `${batchId}:${relativePath}`;

export interface BatchHooks {
  /** Records files the server acknowledged, before they count as done (the journal's `itemsDone`). */
  acknowledged(paths: string[]): Promise<void>;
  /** The journal's record of a large file's own upload, to resume it. */
  resumeOf(taskId: string): Promise<Parameters<typeof fsUpload>[2]>;
  /** A large file's own upload finished: its record is no longer needed. */
  finishedLarge(taskId: string): Promise<void>;
}

/**
 * Files picked together into a mount folder, as one task: small files in groups (one request each, the server
 * streams each file into storage and answers per file), large ones in parts, BATCH_LANES requests at a time under
 * the shared scheduler. Progress counts only bytes the server acknowledged; offline, the batch says it waits for the
 * network and its figures stop. A file that fails does not stop the others; the result lists them by relative path.
 */
export async function fsBatchUpload(job: BatchJob, context: MultipartContext, hooks: BatchHooks): Promise<FsItemsResult> {
  const { taskId, signal } = { taskId: job.taskId, signal: context.signal };
  const result = emptyItemsResult();
  result.succeeded.push(...job.done);
  result.failed.push(...(job.missing ?? []).filter((path) => !job.done.has(path)).map((path) => ({ path, error: { code: 'file_mismatch' } satisfies TransferError })));
  const units = planBatch(job.files, job.done);
  const progress = new BatchProgress(taskId, context, job.files, job.done);
  const report = itemReporter(taskId, context.emit, 0, result, { signal, progressInBytes: true });
  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  report(units[0] ? firstPath(units[0]) : '');
  progress.show();
  const waitForNetwork = () => progress.waitForNetwork();

  const sendGroup = async (unit: Extract<BatchUnit, { kind: 'group' }>) => {
    const paths = unit.files.map((entry) => entry.relativePath);
    const answer = await postGroup(job, unit, context, waitForNetwork).catch((error: unknown) => {
      if (isCancelled(error) || signal.aborted) throw cancelled();
      return { succeeded: [], failed: [], refused: error };
    });
    if ('refused' in answer) {
      result.failed.push(...allFailed(paths, answer.refused));
      return;
    }
    const stored = answer.succeeded.map((entry) => entry.relativePath);
    await hooks.acknowledged(stored);
    const sizes = new Map(unit.files.map((entry) => [entry.relativePath, entry.file.size]));
    for (const path of stored) progress.acknowledge(sizes.get(path) ?? 0);
    result.succeeded.push(...stored);
    result.failed.push(...answer.failed.map((item) => ({ path: item.relativePath, error: { code: 'unknown', serverMessage: item.message } satisfies TransferError })));
  };

  const sendLarge = async ({ file, relativePath }: BatchFile) => {
    const subId = largeFileTaskId(taskId, relativePath);
    const sub: MultipartContext = {
      ...context,
      emit: (event) => {
        if (event.type === 'engine.progress') progress.partly(subId, event.progress.loaded);
        else if (event.type === 'engine.stage') progress.fileStage(subId, event.stage);
      },
    };
    try {
      await fsUpload({ taskId: subId, api: job.api, file, folder: job.folder, relativePath, batchOf: taskId }, sub, await hooks.resumeOf(subId));
      await hooks.acknowledged([relativePath]);
      progress.acknowledge(file.size);
      result.succeeded.push(relativePath);
      await hooks.finishedLarge(subId);
    } catch (error) {
      if (isCancelled(error) || signal.aborted) throw cancelled();
      result.failed.push(...allFailed([relativePath], error));
    } finally {
      progress.partly(subId, undefined);
    }
  };

  let next = 0;
  const lane = async () => {
    for (let unit = units[next++]; unit; unit = units[next++]) {
      report(firstPath(unit));
      if (unit.kind === 'group') await sendGroup(unit);
      else await sendLarge(unit.file);
      progress.show();
    }
  };
  try {
    await inLanes(Math.min(BATCH_LANES, units.length), lane);
  } finally {
    progress.end(false);
    context.scheduler.finish(taskId);
  }
  report(units.at(-1) ? firstPath(units.at(-1)!) : '', true);
  progress.end(true);
  return result;
}

const firstPath = (unit: BatchUnit) => (unit.kind === 'group' ? (unit.files[0]?.relativePath ?? '') : unit.file.relativePath);

/** One group's request, tried again as a part would be; any other refusal fails the group's files. */
const postGroup = (job: BatchJob, unit: Extract<BatchUnit, { kind: 'group' }>, context: MultipartContext, waitForNetwork: () => Promise<void>) =>
  postFormWithRetries<FsUploadBatchResult>(context, {
    taskId: job.taskId,
    access: job.api,
    path: `${fsBase(job.api)}/upload-batch`,
    form: () => groupForm(job.folder, unit),
    waitForNetwork,
    refusal: (status, body) => apiFailure(status, body, 'unknown'),
  });

/** The form the server reads in order: the folder, then each file's relative path right before its bytes. */
function groupForm(folder: string, unit: Extract<BatchUnit, { kind: 'group' }>): FormData {
  const form = new FormData();
  form.append('path', folder);
  for (const { file, relativePath } of unit.files) {
    form.append('relativePath', relativePath);
    form.append('file', file, file.name);
  }
  return form;
}
