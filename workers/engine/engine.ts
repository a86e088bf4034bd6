import type { FileShare } from '../../contract/files';
import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { FsUploadResult } from '../../contract/fs';
import {
  NO_SHARE_OPTIONS,
  type ApiAccess,
  type BatchFile,
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
  type TransferConcurrency,
  type TransferError,
  type UrlShareUpload,
} from '../../contract/transfer';
import { openJournal, type Journal } from '../journal/store';
import { fsCopy } from '../pipelines/fs-copy';
import { fsDelete } from '../pipelines/fs-delete';
import { directoryFiles } from '../pipelines/directory-files';
import { fsBatchUpload } from '../pipelines/fs-batch-upload';
import { fsDownloadZip } from '../pipelines/fs-download-zip';
import { fsDescription, fsUpload } from '../pipelines/fs-upload';
import { fsProtocol, shareMultipartJob } from '../pipelines/multipart-protocol';
import { multipartUpload, type MultipartContext } from '../pipelines/multipart-upload';
import { presignedUpload } from '../pipelines/presigned-upload';
import { shareBatchUpload } from '../pipelines/share-batch-upload';
import { urlUpload } from '../pipelines/url-upload';
import { callApi } from '../transport/api';
import { Scheduler } from './scheduler';

/** How often a paused task looks at navigator.onLine, besides listening for the `online` event. */
const ONLINE_CHECK_MS = 1000;

/**
 * Resolves when the worker's browser is online again; rejects as cancelled when the task is. A dedicated worker
 * is not always sent `online` (Chromium's network emulation changes navigator.onLine without it), so the flag is
 * also checked every second.
 */
function untilOnline(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (navigator.onLine) return resolve();
    const stop = () => {
      removeEventListener('online', online);
      clearInterval(check);
    };
    const online = () => {
      stop();
      resolve();
    };
    addEventListener('online', online);
    const check = setInterval(() => navigator.onLine && online(), ONLINE_CHECK_MS);
    signal.addEventListener(
      'abort',
      () => {
        stop();
        reject({ code: 'cancelled' } satisfies TransferError);
      },
      { once: true },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject({ code: 'cancelled' } satisfies TransferError);
    }, { once: true });
  });
}

/**
 * The engine facade the page talks to through Comlink. Every task runs under its own AbortController (a cancel
 * aborts what is in flight at once); every part request goes through one shared scheduler; every multipart
 * step is written to the journal so that a reload can resume.
 */
export class TransferEngine {
  private readonly running = new Map<string, AbortController>();
  private readonly scheduler = new Scheduler();
  private readonly journal: Journal = openJournal();
  /** Files of batches handed over in slices, until their batch starts. */
  private readonly staged = new Map<string, BatchFile[]>();

  /** A local file as a file share: one presigned PUT when small, multipart when over 5 MiB. */
  async uploadFile(command: FileShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    return this.run(command.taskId, async (signal) => {
      if (command.file.size <= MULTIPART_THRESHOLD) {
        const { file } = command;
        const describe = {
          kind: 'single' as const,
          label: file.name,
          file: { name: file.name, size: file.size, lastModified: file.lastModified, type: file.type },
          mimetype: command.mimetype,
          ...(command.storageConfigId && { storageConfigId: command.storageConfigId }),
          options: command.options,
        };
        return this.journaled(command.taskId, describe, file.size, () => presignedUpload(command, { signal, emit: onEvent }), signal);
      }
      // A retry of a failed task picks up its journal: same upload, only the missing parts.
      const previous = (await this.journal.tasks()).get(command.taskId);
      const resume = previous && previous.status !== 'completed' && previous.uploadId ? previous : undefined;
      return multipartUpload(
        shareMultipartJob({
          taskId: command.taskId,
          api: command.api,
          source: command.file,
          label: command.file.name,
          mimetype: command.mimetype,
          ...(command.storageConfigId && { storageConfigId: command.storageConfigId }),
          options: command.options,
          family: 's3',
          ...(resume && { resume }),
        }),
        this.context(signal, onEvent),
      );
    });
  }

  /** A small upload is one request, so its log is just queued and how it ended: enough to list it after a reload. */
  private async journaled<R>(
    taskId: string,
    describe: Omit<JournalTaskSpec, 'taskId' | 'partSize' | 'partCount' | 'size'>,
    size: number,
    work: () => Promise<R>,
    signal: AbortSignal,
  ): Promise<R> {
    await this.journal.append({ type: 'queued', taskId, at: Date.now(), ...describe, partSize: size, partCount: 1, size });
    return this.recordEnd(taskId, signal, work);
  }

  /**
   * Runs a task's work and writes how it ended to the journal: completed with its result (`recorded` turns the
   * answer into what the journal keeps), cancelled, or failed with its error.
   */
  private async recordEnd<R>(taskId: string, signal: AbortSignal, work: () => Promise<R>, recorded: (result: R) => unknown = (result) => result): Promise<R> {
    try {
      const result = await work();
      await this.journal.append({ type: 'completed', taskId, at: Date.now(), result: recorded(result) });
      return result;
    } catch (error) {
      if (signal.aborted) await this.journal.append({ type: 'cancelled', taskId, at: Date.now() });
      else await this.journal.append({ type: 'failed', taskId, at: Date.now(), error: error as TransferError });
      throw error;
    }
  }

  /**
   * A local file into a mount folder (mount explorer). Large files resume from the journal like file shares: a
   * retry, or the same file picked again after a reload, sends only the missing parts.
   */
  async uploadToMount(command: FsFileUpload, onEvent: (event: EngineEvent) => void): Promise<FsUploadResult> {
    return this.run(command.taskId, async (signal) => {
      const context = this.context(signal, onEvent);
      if (command.file.size <= MULTIPART_THRESHOLD) {
        return this.journaled(command.taskId, fsDescription(command), command.file.size, () => fsUpload(command, context), signal);
      }
      const previous = (await this.journal.tasks()).get(command.taskId);
      const resume = previous && previous.status !== 'completed' && previous.uploadId ? previous : undefined;
      return fsUpload(command, context, resume);
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
        if (paths.length > 0) await this.journal.append({ type: 'itemsDone', taskId: command.taskId, at: Date.now(), paths });
      };
      const job = { ...command, files, done: new Set(known?.done ?? []), missing };
      return fsBatchUpload(job, this.context(signal, onEvent), { ...this.largeFileHooks(), acknowledged });
    });
  }


  /**
   * A batch after a reload, with the files picked again: those that match the journal's (same relative path, size
   * and modification time) go on, the acknowledged ones are not sent again, and any not picked again fail as such.
   */
  async resumeBatch(taskId: string, picked: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FsItemsResult> {
    const task = (await this.journal.tasks()).get(taskId);
    if (!task?.batchFiles || task.fsFolder === undefined) throw { code: 'unknown' } satisfies TransferError;
    const byPath = new Map(this.batchFiles(taskId, picked).map((entry) => [entry.relativePath, entry]));
    const done = new Set(task.done ?? []);
    const files: BatchFile[] = [];
    const missing: string[] = [];
    for (const identity of task.batchFiles) {
      const entry = byPath.get(identity.relativePath);
      if (entry && entry.file.size === identity.size && entry.file.lastModified === identity.lastModified) files.push(entry);
      else if (!done.has(identity.relativePath)) missing.push(identity.relativePath);
    }
    if (files.length === 0 && missing.length > 0) throw { code: 'file_mismatch' } satisfies TransferError;
    return this.uploadBatchToMount({ taskId, api, label: task.label, folder: task.fsFolder, files }, onEvent, missing);
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
      const shared = (entry: ShareBatchResult['shares'][number]) =>
        this.journal.append({ type: 'itemsDone', taskId: command.taskId, at: Date.now(), paths: [entry.path], shares: [entry] });
      const job = { ...command, done: new Set(known?.done ?? []), shares: known?.shares ?? [], missing };
      return shareBatchUpload(job, this.context(signal, onEvent), { ...this.largeFileHooks(), shared });
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
      const known = (await this.journal.tasks()).get(taskId);
      if (!known) {
        const batchFiles = files.map(({ file, relativePath }) => ({ relativePath, name: file.name, size: file.size, lastModified: file.lastModified, type: file.type }));
        const size = files.reduce((sum, entry) => sum + entry.file.size, 0);
        await this.journal.append({ type: 'queued', taskId, at: Date.now(), ...spec, batchFiles, mimetype: 'application/octet-stream', partSize: 0, partCount: 0, size });
      }
      return this.recordEnd(taskId, signal, () => work(known, signal, files));
    });
  }

  /** How a batch's large files (journal records of their own) resume and end. */
  private largeFileHooks() {
    return {
      resumeOf: async (id: string) => {
        const previous = (await this.journal.tasks()).get(id);
        // A cancel (a pause) gave the storage's upload up: only a failed or interrupted one can go on.
        const resumable = previous && previous.status !== 'completed' && previous.status !== 'cancelled' && previous.uploadId;
        return resumable ? previous : undefined;
      },
      finishedLarge: (id: string) => this.journal.forget(id),
    };
  }


  /**
   * A share batch after a reload, with the files picked again: each of the journal's files is matched to a picked
   * file of the same name, size and modification time; those not picked again (and not yet shared) fail as such.
   */
  async resumeShareBatch(taskId: string, picked: BatchFile[], api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<ShareBatchResult> {
    const task = (await this.journal.tasks()).get(taskId);
    if (task?.kind !== 'shareBatch' || !task.batchFiles) throw { code: 'unknown' } satisfies TransferError;
    const unused = this.batchFiles(taskId, picked);
    const done = new Set(task.done ?? []);
    const files: BatchFile[] = [];
    const missing: string[] = [];
    for (const identity of task.batchFiles) {
      const index = unused.findIndex(({ file }) => file.name === identity.name && file.size === identity.size && file.lastModified === identity.lastModified);
      const entry = index >= 0 ? unused.splice(index, 1)[0] : undefined;
      if (entry) files.push({ file: entry.file, relativePath: identity.relativePath });
      else if (!done.has(identity.relativePath)) missing.push(identity.relativePath);
    }
    if (files.length === 0 && missing.length > 0) throw { code: 'file_mismatch' } satisfies TransferError;
    const command: ShareBatchUpload = { taskId, api, label: task.label, files, options: task.options, ...(task.storageConfigId && { storageConfigId: task.storageConfigId }) };
    return this.uploadShareBatch(command, onEvent, missing);
  }

  /** Copies between mount paths (see fsCopy); the answer lists what was copied, skipped and failed. */
  async copyInMounts(command: FsCopy, onEvent: (event: EngineEvent) => void, record?: ItemsTaskRecord): Promise<FsItemsResult> {
    return this.run(command.taskId, (signal) => this.journaledItems(command.taskId, record, signal, () => fsCopy(command, this.context(signal, onEvent))));
  }

  /** Removes mount paths in batches (see fsDelete). */
  async deleteInMounts(command: FsDelete, onEvent: (event: EngineEvent) => void, record?: ItemsTaskRecord): Promise<FsItemsResult> {
    return this.run(command.taskId, (signal) => this.journaledItems(command.taskId, record, signal, () => fsDelete(command, { signal, emit: onEvent })));
  }

  /** Selected mount paths as one zip (see fsDownloadZip). */
  async downloadZip(command: FsZipDownload, onEvent: (event: EngineEvent) => void, record?: ItemsTaskRecord): Promise<FsItemsResult> {
    return this.run(command.taskId, (signal) => this.journaledItems(command.taskId, record, signal, () => fsDownloadZip(command, { signal, emit: onEvent })));
  }

  /**
   * A copy, delete or zip download in the journal, so that the list after a reload is the list before it: the task
   * as the page added it, then how it ended, with the result of the whole task (this run's joined to `previous`).
   */
  private async journaledItems(taskId: string, record: ItemsTaskRecord | undefined, signal: AbortSignal, work: () => Promise<FsItemsResult>): Promise<FsItemsResult> {
    if (!record) return work();
    const { previous, ...itemsTask } = record;
    await this.journal.append({ type: 'queued', taskId, at: Date.now(), kind: 'fsItems', label: record.label, itemsTask, mimetype: '', options: NO_SHARE_OPTIONS, partSize: 0, partCount: 0, size: 0 });
    const whole = (result: FsItemsResult) =>
      previous ? { succeeded: [...previous.succeeded, ...result.succeeded], skipped: [...previous.skipped, ...result.skipped], failed: result.failed } : result;
    return this.recordEnd(taskId, signal, work, whole);
  }

  /** A file from a web address as a file share. */
  async uploadUrl(command: UrlShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    return this.run(command.taskId, (signal) => this.journaledUrl(command, undefined, signal, onEvent));
  }

  /** After a reload a URL upload resumes by itself: download again, send only the parts storage lacks. */
  async resumeUrl(taskId: string, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    const task = (await this.journal.tasks()).get(taskId);
    if (!task?.url) throw { code: 'unknown' } satisfies TransferError;
    const command: UrlShareUpload = {
      taskId,
      api,
      url: task.url,
      filename: task.label,
      options: task.options,
      ...(task.storageConfigId && { storageConfigId: task.storageConfigId }),
    };
    return this.run(taskId, (signal) => this.journaledUrl(command, task, signal, onEvent));
  }

  private async journaledUrl(
    command: UrlShareUpload,
    resume: JournalTask | undefined,
    signal: AbortSignal,
    onEvent: (event: EngineEvent) => void,
  ): Promise<FileShare> {
    const { taskId } = command;
    if (!resume) {
      await this.journal.append({
        type: 'queued',
        taskId,
        at: Date.now(),
        kind: 'url',
        label: command.filename || command.url,
        url: command.url,
        mimetype: 'application/octet-stream',
        ...(command.storageConfigId && { storageConfigId: command.storageConfigId }),
        options: command.options,
        partSize: 0,
        partCount: 0,
        size: 0,
      });
    }
    return this.recordEnd(taskId, signal, () => urlUpload(command, this.context(signal, onEvent), resume));
  }

  /** Tasks known to the journal, for the page to rebuild its list after a reload. */
  async journalTasks(): Promise<JournalTask[]> {
    // A batch's large files have records of their own while they upload; the list shows the batch.
    return [...(await this.journal.tasks()).values()].filter((task) => !task.batchOf);
  }

  /**
   * Continue a multipart upload after a reload with the file the user picked again; it must be the same file
   * (name, size and last-modified), or the parts would not fit together.
   */
  async resumeFile(taskId: string, file: File, api: ApiAccess, onEvent: (event: EngineEvent) => void): Promise<FileShare | FsUploadResult> {
    const task = (await this.journal.tasks()).get(taskId);
    if (!task?.file) throw { code: 'unknown' } satisfies TransferError;
    const same = task.file.name === file.name && task.file.size === file.size && task.file.lastModified === file.lastModified;
    if (!same) throw { code: 'file_mismatch' } satisfies TransferError;
    if (task.kind === 'fs' && task.fsFolder !== undefined) {
      // The folder already holds a dropped folder's sub-folders, so the file goes straight in by its name.
      return this.uploadToMount({ taskId, api, file, folder: task.fsFolder }, onEvent);
    }
    if (task.kind === 'single') {
      return this.uploadFile({ taskId, api, file, mimetype: task.mimetype, options: task.options, ...(task.storageConfigId && { storageConfigId: task.storageConfigId }) }, onEvent);
    }
    return this.run(taskId, (signal) =>
      multipartUpload(
        shareMultipartJob({
          taskId,
          api,
          source: file,
          label: task.label,
          mimetype: task.mimetype,
          ...(task.storageConfigId && { storageConfigId: task.storageConfigId }),
          options: task.options,
          family: 's3',
          resume: task,
        }),
        this.context(signal, onEvent),
      ),
    );
  }

  /** Parts in flight per upload and in all, for the requests granted from now on. */
  configure(limits: TransferConcurrency): void {
    this.scheduler.configure(limits);
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
    const tasks = await this.journal.tasks();
    const batchFiles = [...tasks.values()].filter((task) => task.batchOf === taskId);
    await Promise.all([...batchFiles, tasks.get(taskId)].map((task) => this.forgetUpload(task, api)));
  }

  /** Gives up an unfinished multipart upload on the storage and drops its journal. */
  private async forgetUpload(task: JournalTask | undefined, api: ApiAccess): Promise<void> {
    if (task?.kind === 'fs' && task.fileId && task.uploadId && task.file && task.status !== 'completed') {
      const target = { folder: task.fsFolder ?? '/', filename: task.file.name, contentType: task.mimetype, size: task.size };
      await fsProtocol(api, target).abort({ fileId: task.fileId, uploadId: task.uploadId }).catch(() => undefined);
    } else if (task?.fileId && task.uploadId && task.status !== 'completed') {
      const family = task.kind === 'url' ? 'url' : 's3';
      await callApi(api, `/${family}/multipart/abort`, {
        method: 'POST',
        body: { file_id: task.fileId, upload_id: task.uploadId },
        failure: 'unknown',
      }).catch(() => undefined);
    }
    if (task) await this.journal.forget(task.taskId);
  }

  private context(signal: AbortSignal, emit: (event: EngineEvent) => void): MultipartContext {
    return { signal, emit, journal: this.journal, scheduler: this.scheduler, online: () => navigator.onLine, untilOnline, sleep };
  }

  private async run<T>(taskId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    try {
      return await work(controller.signal);
    } catch (error) {
      // Whatever failed last, a cancelled task reports `cancelled`.
      if (controller.signal.aborted) throw { code: 'cancelled' } satisfies TransferError;
      throw error;
    } finally {
      this.running.delete(taskId);
    }
  }
}
