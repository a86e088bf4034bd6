import type { FileShare } from '../../contract/files';
import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { ExpenseReceipt } from '../../contract/expenses';
import type { FsUploadResult } from '../../contract/fs';
import {
  NO_SHARE_OPTIONS,
  type ApiAccess,
  type BatchFile,
  type ConflictResolution,
  type EngineEvent,
  type FileShareUpload,
  type FsCopy,
  type FsBatchUpload,
  type FsDelete,
  type FsDirectoryUpload,
  type FsFileUpload,
  type FsItemsResult,
  type FsZipDownload,
  type ItemsTaskRecord,
  type JournalTask,
  type ShareBatchResult,
  type ShareBatchUpload,
  type JournalTaskSpec,
  type ReceiptUpload,
  type RequestFileUpload,
  type TransferConcurrency,
  type UrlShareUpload,
} from '../../contract/transfer';
import type { FileRequestUpload } from '../../contract/file-requests';
import { requestFileUpload } from '../pipelines/file-request-upload';
import { fsCopy } from '../pipelines/fs-copy';
import { fsDelete } from '../pipelines/fs-delete';
import { directoryFiles } from '../pipelines/directory-files';
import { fsBatchUpload } from '../pipelines/fs-batch-upload';
import { fsDownloadZip } from '../pipelines/fs-download-zip';
import { fsDescription, fsUploadAsking } from '../pipelines/fs-upload';
import { fsProtocol, shareMultipartJob } from '../pipelines/multipart-protocol';
import { multipartUpload, type MultipartContext } from '../pipelines/multipart-upload';
import { presignedUpload } from '../pipelines/presigned-upload';
import { sharedCopyOf } from '../pipelines/image-privacy';
import { receiptUpload } from '../pipelines/receipt-upload';
import { shareBatchUpload } from '../pipelines/share-batch-upload';
import { urlUpload } from '../pipelines/url-upload';
import { callApi } from '../transport/api';
import { matchMountBatch, matchShareBatch } from './batch-matching';
import { browserDeps, type EngineDeps } from './deps';
import { cancelled, TransferFailure, toTransferError } from './failure';
import { TaskRecords } from './task-records';

/** A call of the page's: its failure crosses Comlink as the plain TransferError (an Error would lose its fields). */
async function answered<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toTransferError(error);
  }
}

/**
 * The engine facade the page talks to through Comlink. Every task runs under its own AbortController (a cancel
 * aborts what is in flight at once); every part request goes through one shared scheduler; every multipart
 * step is written to the journal so that a reload can resume. Its failures reach the page as plain TransferErrors.
 */
export class TransferEngine {
  private readonly running = new Map<string, AbortController>();
  private readonly records: TaskRecords;
  /** Files of batches handed over in slices, until their batch starts. */
  private readonly staged = new Map<string, BatchFile[]>();

  constructor(private readonly deps: EngineDeps = browserDeps()) {
    this.records = new TaskRecords(deps.journal, deps.clock.now);
  }

  /** A local file as a file share: one presigned PUT when small, multipart when over 5 MiB. */
  async uploadFile(command: FileShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    return this.run(command.taskId, async (signal) => {
      const context = this.context(signal, onEvent);
      const file = await sharedCopyOf(command.file, command.options.strip_metadata);
      const shared = { ...command, file };
      if (file.size <= MULTIPART_THRESHOLD) {
        const describe = {
          kind: 'single' as const,
          label: file.name,
          file: { name: file.name, size: file.size, lastModified: file.lastModified, type: file.type },
          mimetype: command.mimetype,
          ...(command.storageConfigId && { storageConfigId: command.storageConfigId }),
          options: command.options,
        };
        return this.records.single(command.taskId, describe, file.size, signal, () => presignedUpload(shared, context));
      }
      // A retry of a failed task picks up its journal: same upload, only the missing parts.
      const resume = await this.records.unfinishedUpload(command.taskId);
      return this.multipartShare(command.taskId, command.api, file, { ...command, label: file.name }, resume, context);
    });
  }

  /** A file share in parts: new, or going on with the journal's record `resume`. */
  private multipartShare(
    taskId: string,
    api: ApiAccess,
    file: File,
    fields: Pick<JournalTaskSpec, 'label' | 'mimetype' | 'storageConfigId' | 'options'>,
    resume: JournalTask | undefined,
    context: MultipartContext,
  ): Promise<FileShare> {
    const { label, mimetype, storageConfigId, options } = fields;
    const job = shareMultipartJob({ taskId, api, transport: this.deps.transport, source: file, label, mimetype, ...(storageConfigId && { storageConfigId }), options, family: 's3', ...(resume && { resume }) });
    return multipartUpload(job, context);
  }

  /**
   * A local file into a mount folder (mount explorer). Large files resume from the journal like file shares: a
   * retry, or the same file picked again after a reload, sends only the missing parts.
   */
  async uploadToMount(command: FsFileUpload, onEvent: (event: EngineEvent) => void): Promise<FsUploadResult | FsItemsResult> {
    return this.run(command.taskId, async (signal) => {
      const context = this.context(signal, onEvent);
      if (command.file.size <= MULTIPART_THRESHOLD) {
        return this.records.single(command.taskId, fsDescription(command), command.file.size, signal, () => fsUploadAsking(command, context));
      }
      return fsUploadAsking(command, context, await this.records.unfinishedUpload(command.taskId));
    });
  }

  /**
   * Files picked together into a mount folder, as one task (see fsBatchUpload). The journal keeps the batch and
   * every file the server acknowledged: a retry, a resume after a pause, or the files picked again after a reload
   * (resumeBatch) send only the rest.
   */
  async uploadBatchToMount(batch: FsBatchUpload, onEvent: (event: EngineEvent) => void, missing: string[] = []): Promise<FsItemsResult> {
    const files = this.batchFiles(batch.taskId, batch.files);
    return this.batchToMount(batch, async () => files, onEvent, missing);
  }

  /**
   * A folder the user picked, walked here (see directoryFiles), then uploaded as a batch: its files never pass the
   * page's main thread. A retry walks it again; what the journal saw acknowledged is not sent again.
   */
  async uploadDirectoryToMount(command: FsDirectoryUpload, onEvent: (event: EngineEvent) => void): Promise<FsItemsResult> {
    return this.batchToMount(command, (signal) => {
      onEvent({ type: 'engine.stage', taskId: command.taskId, stage: 'starting' });
      return directoryFiles(command.directory, signal);
    }, onEvent);
  }

  private batchToMount(
    command: Omit<FsBatchUpload, 'files'>,
    filesOf: (signal: AbortSignal) => Promise<BatchFile[]>,
    onEvent: (event: EngineEvent) => void,
    missing: string[] = [],
  ): Promise<FsItemsResult> {
    const spec = { kind: 'fsBatch' as const, label: command.label, options: NO_SHARE_OPTIONS, fsFolder: command.folder };
    return this.journaledBatch(command.taskId, spec, filesOf, (known, signal, files) => {
      const acknowledged = async (paths: string[]) => {
        if (paths.length > 0) await this.records.itemsDone(command.taskId, paths);
      };
      const job = { ...command, files, done: new Set(known?.done ?? []), missing, rerun: Boolean(known), ...(command.resolution && { resolution: command.resolution }) };
      return fsBatchUpload(job, this.context(signal, onEvent), { ...this.records.largeFileHooks(), acknowledged });
    });
  }

  /**
   * A batch after a reload, with the files picked again: those that match the journal's (same relative path, size
   * and modification time) go on, the acknowledged ones are not sent again, and any not picked again fail as such.
   */
  async resumeBatch(taskId: string, picked: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void, resolution?: ConflictResolution): Promise<FsItemsResult> {
    return answered(async () => {
      const task = await this.records.task(taskId);
      if (!task?.batchFiles || task.fsFolder === undefined) throw new TransferFailure({ code: 'unknown' });
      const { files, missing } = matchMountBatch({ ...task, batchFiles: task.batchFiles }, this.batchFiles(taskId, picked));
      return this.uploadBatchToMount({ taskId, api, label: task.label, folder: task.fsFolder, files, ...(resolution && { resolution }) }, onEvent, missing);
    });
  }

  /**
   * Files shared together on the upload page, as one task (see shareBatchUpload). The journal keeps the batch and
   * every file's share as it is done: a retry, a resume after a pause, or the files picked again after a reload
   * (resumeShareBatch) send only the rest, and a finished batch comes back with every link.
   */
  async uploadShareBatch(batch: ShareBatchUpload, onEvent: (event: EngineEvent) => void, missing: string[] = []): Promise<ShareBatchResult> {
    const command = { ...batch, files: this.batchFiles(batch.taskId, batch.files) };
    const spec = { kind: 'shareBatch' as const, label: command.label, options: command.options, ...(command.storageConfigId && { storageConfigId: command.storageConfigId }) };
    return this.journaledBatch(command.taskId, spec, async () => command.files, (known, signal) => {
      const shared = (entry: ShareBatchResult['shares'][number]) => this.records.itemsDone(command.taskId, [entry.path], [entry]);
      const job = { ...command, done: new Set(known?.done ?? []), shares: known?.shares ?? [], missing };
      return shareBatchUpload(job, this.context(signal, onEvent), { ...this.records.largeFileHooks(), shared });
    });
  }

  /**
   * A batch under its journal record: queued once with every file (so that it can be matched after a reload), then
   * how each run ended, with its result. `work` is given what the journal knew of the batch before this run.
   */
  private journaledBatch<R>(
    taskId: string,
    spec: Pick<JournalTaskSpec, 'kind' | 'label' | 'options' | 'fsFolder' | 'storageConfigId'>,
    filesOf: (signal: AbortSignal) => Promise<BatchFile[]>,
    work: (known: JournalTask | undefined, signal: AbortSignal, files: BatchFile[]) => Promise<R>,
  ): Promise<R> {
    return this.run(taskId, async (signal) => {
      const files = await filesOf(signal);
      const known = await this.records.task(taskId);
      if (!known) await this.records.queueBatch(taskId, spec, files);
      return this.records.ending(taskId, signal, () => work(known, signal, files));
    });
  }

  /**
   * A share batch after a reload, with the files picked again: each of the journal's files is matched to a picked
   * file of the same name, size and modification time; those not picked again (and not yet shared) fail as such.
   */
  async resumeShareBatch(taskId: string, picked: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<ShareBatchResult> {
    return answered(async () => {
      const task = await this.records.task(taskId);
      if (task?.kind !== 'shareBatch' || !task.batchFiles) throw new TransferFailure({ code: 'unknown' });
      const { files, missing } = matchShareBatch({ ...task, batchFiles: task.batchFiles }, this.batchFiles(taskId, picked));
      const command: ShareBatchUpload = { taskId, api, label: task.label, files, options: task.options, ...(task.storageConfigId && { storageConfigId: task.storageConfigId }) };
      return this.uploadShareBatch(command, onEvent, missing);
    });
  }

  /** Copies or moves between mount paths (see fsCopy); the answer lists what was done, skipped and failed. */
  async copyInMounts(command: FsCopy, onEvent: (event: EngineEvent) => void, record?: ItemsTaskRecord): Promise<FsItemsResult> {
    return this.run(command.taskId, (signal) => this.records.items(command.taskId, record, signal, () => fsCopy(command, this.context(signal, onEvent))));
  }

  /** Removes mount paths in batches (see fsDelete). */
  async deleteInMounts(command: FsDelete, onEvent: (event: EngineEvent) => void, record?: ItemsTaskRecord): Promise<FsItemsResult> {
    return this.run(command.taskId, (signal) => this.records.items(command.taskId, record, signal, () => fsDelete(command, this.context(signal, onEvent))));
  }

  /** Selected mount paths as one zip (see fsDownloadZip). */
  async downloadZip(command: FsZipDownload, onEvent: (event: EngineEvent) => void, record?: ItemsTaskRecord): Promise<FsItemsResult> {
    return this.run(command.taskId, (signal) => this.records.items(command.taskId, record, signal, () => fsDownloadZip(command, this.context(signal, onEvent))));
  }

  /** A receipt of an expense claim (see receiptUpload): one request, so a retry sends it whole again. */
  async uploadReceipt(command: ReceiptUpload, onEvent: (event: EngineEvent) => void): Promise<ExpenseReceipt> {
    return this.run(command.taskId, (signal) => receiptUpload(command, this.context(signal, onEvent)));
  }

  /**
   * A file sent through a file request, in parts: a retry, or the same file picked again after a reload
   * (resumeFile), sends only the parts storage does not hold.
   */
  async uploadToRequest(command: RequestFileUpload, onEvent: (event: EngineEvent) => void): Promise<FileRequestUpload> {
    return this.run(command.taskId, async (signal) => requestFileUpload(command, this.context(signal, onEvent), await this.records.unfinishedUpload(command.taskId)));
  }

  /** A file from a web address as a file share. */
  async uploadUrl(command: UrlShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    return this.run(command.taskId, async (signal) => {
      await this.records.queueUrl(command);
      return this.records.ending(command.taskId, signal, () => urlUpload(command, this.context(signal, onEvent)));
    });
  }

  /** After a reload a URL upload resumes by itself: download again, send only the parts storage lacks. */
  async resumeUrl(taskId: string, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    return answered(async () => {
      const task = await this.records.task(taskId);
      if (!task?.url) throw new TransferFailure({ code: 'unknown' });
      const command: UrlShareUpload = { taskId, api, url: task.url, filename: task.label, options: task.options, ...(task.storageConfigId && { storageConfigId: task.storageConfigId }) };
      return this.run(taskId, (signal) => this.records.ending(taskId, signal, () => urlUpload(command, this.context(signal, onEvent), task)));
    });
  }

  /** Tasks known to the journal, for the page to rebuild its list after a reload. */
  async journalTasks(): Promise<JournalTask[]> {
    // A batch's large files have records of their own while they upload; the list shows the batch.
    return [...(await this.deps.journal.tasks()).values()].filter((task) => !task.batchOf);
  }

  /**
   * Continue a multipart upload after a reload with the file the user picked again; it must be the same file
   * (name, size and last-modified), or the parts would not fit together.
   */
  async resumeFile(
    taskId: string,
    file: File,
    api: ApiAccess,
    onEvent: (event: EngineEvent) => void,
    resolution?: ConflictResolution,
  ): Promise<FileShare | FsUploadResult | FsItemsResult | FileRequestUpload> {
    return answered(async () => {
      const task = await this.records.task(taskId);
      if (!task?.file) throw new TransferFailure({ code: 'unknown' });
      const same = task.file.name === file.name && task.file.size === file.size && task.file.lastModified === file.lastModified;
      if (!same) throw new TransferFailure({ code: 'file_mismatch' });
      if (task.kind === 'fs' && task.fsFolder !== undefined) {
        // The folder already holds a dropped folder's sub-folders, so the file goes straight in by its name.
        return this.uploadToMount({ taskId, api, file, folder: task.fsFolder, ...(resolution && { resolution }) }, onEvent);
      }
      if (task.kind === 'fileRequest' && task.requestSlug !== undefined) {
        return this.uploadToRequest({ taskId, api, slug: task.requestSlug, file }, onEvent);
      }
      if (task.kind === 'single') {
        return this.uploadFile({ taskId, api, file, mimetype: task.mimetype, options: task.options, ...(task.storageConfigId && { storageConfigId: task.storageConfigId }) }, onEvent);
      }
      return this.run(taskId, (signal) => this.multipartShare(taskId, api, file, task, task, this.context(signal, onEvent)));
    });
  }

  /** Parts in flight per upload and in all, for the requests granted from now on. */
  configure(limits: TransferConcurrency): void {
    this.deps.scheduler.configure(limits);
  }

  cancel(taskId: string): void {
    this.running.get(taskId)?.abort();
    this.staged.delete(taskId);
  }

  /** A slice of a batch's files, handed over before the batch starts (see the page's engine client). */
  stageFiles(taskId: string, files: BatchFile[]): void {
    this.staged.set(taskId, [...(this.staged.get(taskId) ?? []), ...files]);
  }

  /** The files of a batch: those staged for it, then any the command carries. */
  private batchFiles(taskId: string, carried: BatchFile[]): BatchFile[] {
    const staged = this.staged.get(taskId) ?? [];
    this.staged.delete(taskId);
    return [...staged, ...carried];
  }

  /**
   * The user removed a task from the list: forget its journal, and give up an unfinished multipart upload on the
   * storage so that no stray parts stay behind.
   */
  async forget(taskId: string, api: ApiAccess): Promise<void> {
    this.cancel(taskId);
    const tasks = await this.deps.journal.tasks();
    const batchFiles = [...tasks.values()].filter((task) => task.batchOf === taskId);
    await Promise.all([...batchFiles, tasks.get(taskId)].map((task) => this.forgetUpload(task, api)));
  }

  /** Gives up an unfinished multipart upload on the storage and drops its journal. */
  private async forgetUpload(task: JournalTask | undefined, api: ApiAccess): Promise<void> {
    const { transport, journal } = this.deps;
    if (task?.kind === 'fs' && task.fileId && task.uploadId && task.file && task.status !== 'completed') {
      const target = { folder: task.fsFolder ?? '/', filename: task.file.name, contentType: task.mimetype, size: task.size };
      await fsProtocol(transport, api, target).abort({ fileId: task.fileId, uploadId: task.uploadId }).catch(() => undefined);
    } else if (task?.fileId && task.uploadId && task.status !== 'completed' && task.kind !== 'fileRequest') {
      // A file request's upload is the sender's, reached with a grant this call does not carry: the server sweeps it.
      const family = task.kind === 'url' ? 'url' : 's3';
      await callApi(transport, api, `/${family}/multipart/abort`, {
        method: 'POST',
        body: { file_id: task.fileId, upload_id: task.uploadId },
        failure: 'unknown',
      }).catch(() => undefined);
    }
    if (task) await journal.forget(task.taskId);
  }

  private context(signal: AbortSignal, emit: (event: EngineEvent) => void): MultipartContext {
    const { journal, scheduler, transport, network, clock } = this.deps;
    return { signal, emit, transport, journal, scheduler, online: network.online, untilOnline: network.untilOnline, sleep: clock.sleep };
  }

  /** Runs a task under its own AbortController; whatever failed last, a cancelled task reports `cancelled`. */
  private run<T>(taskId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    return answered(async () => {
      try {
        return await work(controller.signal);
      } catch (error) {
        throw controller.signal.aborted ? cancelled() : error;
      } finally {
        this.running.delete(taskId);
      }
    });
  }
}
