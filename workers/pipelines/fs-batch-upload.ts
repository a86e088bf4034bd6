import type { FsUploadBatchResult } from '../../contract/fs';
import type { FsConflictPolicy } from '../../contract/fs';
import type { ApiAccess, BatchFile, ConflictResolution, FsItemsResult, TransferError } from '../../contract/transfer';
import { cancelled } from '../engine/failure';
import { planBatch, type BatchUnit } from '../planner/batch';
import { apiFailure } from '../transport/api';
import { BatchProgress } from './batch-progress';
import { conflictPolicies, failuresToConflicts, findConflicts, recordOutcome } from './conflicts';
import { postFormWithRetries, sentShare } from './form-post';
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
  /** What the user chose for the names the first run found taken; without it, taken names are asked about first. */
  resolution?: ConflictResolution;
  /**
   * The journal knew the batch before this run (a resume after a reload, a retry): a file found identical at its
   * target was most likely stored by a run whose answer was lost, and counts as sent rather than as a conflict.
   */
  rerun?: boolean;
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
export async function fsBatchUpload(batch: BatchJob, context: MultipartContext, hooks: BatchHooks): Promise<FsItemsResult> {
  let job = batch;
  const { taskId, signal } = { taskId: job.taskId, signal: context.signal };
  const result = emptyItemsResult();
  result.succeeded.push(...job.done);
  result.failed.push(...(job.missing ?? []).filter((path) => !job.done.has(path)).map((path) => ({ path, error: { code: 'file_mismatch' } satisfies TransferError })));
  if (!job.resolution) {
    // The first run writes nothing while names are taken: the user decides once for the whole batch.
    context.emit({ type: 'engine.stage', taskId, stage: 'initializing' });
    const writes = job.files.filter((entry) => !job.done.has(entry.relativePath)).map((entry) => ({ path: entry.relativePath, targetPath: `${job.folder}${entry.relativePath}`, file: entry.file }));
    const found = await findConflicts(context.transport, job.api, writes, signal);
    const sentBefore = job.rerun ? found.filter((conflict) => conflict.identical).map((conflict) => conflict.path) : [];
    if (sentBefore.length > 0) {
      await hooks.acknowledged(sentBefore);
      result.succeeded.push(...sentBefore);
    }
    const conflicts = found.filter((conflict) => !sentBefore.includes(conflict.path));
    if (conflicts.length > 0) return { ...result, conflicts };
    job = { ...job, done: new Set([...job.done, ...sentBefore]) };
  }
  const policyOf = conflictPolicies(job.resolution);
  // Files the user chose to skip are done without sending a byte.
  const skipped = job.files.filter((entry) => !job.done.has(entry.relativePath) && policyOf(entry.relativePath) === 'skip').map((entry) => entry.relativePath);
  if (skipped.length > 0) await hooks.acknowledged(skipped);
  result.skipped.push(...skipped);
  const settled = new Set([...job.done, ...skipped]);
  const units = planBatch(job.files, settled);
  const progress = new BatchProgress(taskId, context, job.files, settled);
  const report = itemReporter(taskId, context.emit, 0, result, { signal, progressInBytes: true });
  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  report(units[0] ? firstPath(units[0]) : '');
  progress.show();
  const waitForNetwork = () => progress.waitForNetwork();

  const current = new CurrentFile(job.files, report);
  const sendGroup = async (unit: Extract<BatchUnit, { kind: 'group' }>, lane: number) => {
    const paths = unit.files.map((entry) => entry.relativePath);
    const groupKey = `group:${paths[0] ?? ''}`;
    const groupBytes = unit.files.reduce((sum, entry) => sum + entry.file.size, 0);
    // The bar and the current file follow the group's bytes as they go, not only its answer.
    const onSent = (loaded: number, total: number) => {
      const sent = sentShare(groupBytes, loaded, total);
      progress.partly(groupKey, sent);
      current.at(lane, fileAtOffset(unit.files, sent));
    };
    const answer = await postGroup(job, unit, policyOf, context, waitForNetwork, onSent).catch((error: unknown) => {
      if (isCancelled(error) || signal.aborted) throw cancelled();
      return { succeeded: [], failed: [], refused: error };
    });
    progress.partly(groupKey, undefined);
    if ('refused' in answer) {
      result.failed.push(...allFailed(paths, answer.refused));
      return;
    }
    const stored = answer.succeeded.map((entry) => entry.relativePath);
    await hooks.acknowledged(stored);
    const sizes = new Map(unit.files.map((entry) => [entry.relativePath, entry.file.size]));
    for (const path of stored) progress.acknowledge(sizes.get(path) ?? 0);
    for (const entry of answer.succeeded) recordOutcome(result, entry.relativePath, entry.outcome);
    result.failed.push(...answer.failed.map((item) => ({ path: item.relativePath, error: { code: 'unknown', serverMessage: item.message, reason: item.error } satisfies TransferError })));
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
      const stored = await fsUpload(
        { taskId: subId, api: job.api, file, folder: job.folder, relativePath, batchOf: taskId, onConflict: policyOf(relativePath) },
        sub,
        await hooks.resumeOf(subId),
      );
      await hooks.acknowledged([relativePath]);
      progress.acknowledge(file.size);
      recordOutcome(result, relativePath, stored.outcome);
      await hooks.finishedLarge(subId);
    } catch (error) {
      if (isCancelled(error) || signal.aborted) throw cancelled();
      result.failed.push(...allFailed([relativePath], error));
    } finally {
      progress.partly(subId, undefined);
    }
  };

  let next = 0;
  let lanes = 0;
  const lane = async () => {
    const laneId = lanes++;
    for (let unit = units[next++]; unit; unit = units[next++]) {
      current.at(laneId, firstPath(unit));
      if (unit.kind === 'group') await sendGroup(unit, laneId);
      else await sendLarge(unit.file);
      progress.show();
    }
    current.done(laneId);
  };
  try {
    await inLanes(Math.min(BATCH_LANES, units.length), lane);
  } finally {
    progress.end(false);
    context.scheduler.finish(taskId);
  }
  report(units.at(-1) ? firstPath(units.at(-1)!) : '', true);
  progress.end(true);
  failuresToConflicts(result, (path) => `${job.folder}${path}`);
  return result;
}

const firstPath = (unit: BatchUnit) => (unit.kind === 'group' ? (unit.files[0]?.relativePath ?? '') : unit.file.relativePath);

/** The file of a group whose bytes are going at `offset` bytes into the group's files (the form keeps their order). */
export function fileAtOffset(files: readonly BatchFile[], offset: number): string {
  let end = 0;
  for (const { file, relativePath } of files) {
    end += file.size;
    if (offset < end) return relativePath;
  }
  return files.at(-1)?.relativePath ?? '';
}

/**
 * The "current file" of a batch sent in several lanes: the earliest one in the batch's order that a lane is sending,
 * so that it moves forward through the batch instead of jumping between the lanes' places.
 */
export class CurrentFile {
  private readonly order: Map<string, number>;
  private readonly byLane = new Map<number, string>();

  constructor(
    files: readonly BatchFile[],
    private readonly report: (path: string) => void,
  ) {
    this.order = new Map(files.map((entry, index) => [entry.relativePath, index]));
  }

  at(lane: number, path: string) {
    this.byLane.set(lane, path);
    this.tell();
  }

  done(lane: number) {
    this.byLane.delete(lane);
    if (this.byLane.size > 0) this.tell();
  }

  private tell() {
    let earliest: string | undefined;
    for (const path of this.byLane.values()) {
      if (earliest === undefined || (this.order.get(path) ?? 0) < (this.order.get(earliest) ?? 0)) earliest = path;
    }
    if (earliest !== undefined) this.report(earliest);
  }
}

/** One group's request, tried again as a part would be; any other refusal fails the group's files. */
const postGroup = (
  job: BatchJob,
  unit: Extract<BatchUnit, { kind: 'group' }>,
  policyOf: (path: string) => FsConflictPolicy,
  context: MultipartContext,
  waitForNetwork: () => Promise<void>,
  onUploadProgress: (loaded: number, total: number) => void,
) =>
  postFormWithRetries<FsUploadBatchResult>(context, {
    taskId: job.taskId,
    access: job.api,
    path: `${fsBase(job.api)}/upload-batch`,
    form: () => groupForm(job.folder, unit, policyOf),
    waitForNetwork,
    // A new attempt starts from none of the group's bytes.
    onAttempt: () => onUploadProgress(0, 1),
    onUploadProgress,
    refusal: (status, body) => apiFailure(status, body, 'unknown'),
  });

/**
 * The form the server reads in order: the folder, then each file's relative path right before its bytes, with an
 * `onConflict` before the files it differs for from the one before.
 */
function groupForm(folder: string, unit: Extract<BatchUnit, { kind: 'group' }>, policyOf: (path: string) => FsConflictPolicy): FormData {
  const form = new FormData();
  form.append('path', folder);
  let policy: FsConflictPolicy | undefined;
  for (const { file, relativePath } of unit.files) {
    if (policyOf(relativePath) !== policy) {
      policy = policyOf(relativePath);
      form.append('onConflict', policy);
    }
    form.append('relativePath', relativePath);
    form.append('file', file, file.name);
  }
  return form;
}
