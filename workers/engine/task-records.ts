import {
  joinItemsResults,
  NO_SHARE_OPTIONS,
  type BatchFile,
  type FsItemsResult,
  type ItemsTaskRecord,
  type JournalTask,
  type JournalTaskSpec,
  type UrlShareUpload,
} from '../../contract/transfer';
import type { Journal } from '../journal/store';
import { toTransferError } from './failure';

/** What a task's first journal event says of it, besides the plan and size. */
export type TaskDescription = Omit<JournalTaskSpec, 'taskId' | 'partSize' | 'partCount' | 'size'>;

/**
 * How the engine's tasks are kept in the journal: queued with what is needed to list (and resume) them after a
 * reload, then how each run ended. Multipart uploads journal their own steps (see multipartUpload).
 */
export class TaskRecords {
  constructor(
    private readonly journal: Journal,
    private readonly now: () => number,
  ) {}

  /** The journal's record of a task. */
  async task(taskId: string): Promise<JournalTask | undefined> {
    return this.journal.task(taskId);
  }

  /** A multipart upload the journal started and did not complete: a retry picks it up, sending only the missing parts. */
  async unfinishedUpload(taskId: string): Promise<JournalTask | undefined> {
    const previous = await this.task(taskId);
    return previous && previous.status !== 'completed' && previous.uploadId ? previous : undefined;
  }

  /** A small upload is one request, so its log is just queued and how it ended: enough to list it after a reload. */
  async single<R>(taskId: string, describe: TaskDescription, size: number, signal: AbortSignal, work: () => Promise<R>): Promise<R> {
    await this.journal.append({ type: 'queued', taskId, at: this.now(), ...describe, partSize: size, partCount: 1, size });
    return this.ending(taskId, signal, work);
  }

  /**
   * Runs a task's work and writes how it ended: completed with its result (`recorded` turns the answer into what
   * the journal keeps), cancelled, or failed with its error.
   */
  async ending<R>(taskId: string, signal: AbortSignal, work: () => Promise<R>, recorded: (result: R) => unknown = (result) => result): Promise<R> {
    try {
      const result = await work();
      await this.journal.append({ type: 'completed', taskId, at: this.now(), result: recorded(result) });
      return result;
    } catch (error) {
      if (signal.aborted) await this.journal.append({ type: 'cancelled', taskId, at: this.now() });
      else await this.journal.append({ type: 'failed', taskId, at: this.now(), error: toTransferError(error) });
      throw error;
    }
  }

  /** A batch is queued once, with every file, so that the files picked again after a reload can be matched. */
  async queueBatch(taskId: string, spec: Pick<JournalTaskSpec, 'kind' | 'label' | 'options' | 'fsFolder' | 'storageConfigId'>, files: BatchFile[]): Promise<void> {
    const batchFiles = files.map(({ file, relativePath }) => ({ relativePath, name: file.name, size: file.size, lastModified: file.lastModified, type: file.type }));
    const size = files.reduce((sum, entry) => sum + entry.file.size, 0);
    await this.journal.append({ type: 'queued', taskId, at: this.now(), ...spec, batchFiles, mimetype: 'application/octet-stream', partSize: 0, partCount: 0, size });
  }

  /** Files of a batch the server acknowledged (for a share batch, with their shares). */
  async itemsDone(taskId: string, paths: string[], shares?: JournalTask['shares']): Promise<void> {
    await this.journal.append({ type: 'itemsDone', taskId, at: this.now(), paths, ...(shares && { shares }) });
  }

  /**
   * A copy, delete or zip download, so that the list after a reload is the list before it: the task as the page
   * added it, then how it ended, with the result of the whole task (this run's joined to `previous`). Without a
   * record there is nothing to keep.
   */
  async items(taskId: string, record: ItemsTaskRecord | undefined, signal: AbortSignal, work: () => Promise<FsItemsResult>): Promise<FsItemsResult> {
    if (!record) return work();
    const { previous, ...itemsTask } = record;
    await this.journal.append({ type: 'queued', taskId, at: this.now(), kind: 'fsItems', label: record.label, itemsTask, mimetype: '', options: NO_SHARE_OPTIONS, partSize: 0, partCount: 0, size: 0 });
    const whole = (result: FsItemsResult) => (previous ? joinItemsResults(previous, result) : result);
    return this.ending(taskId, signal, work, whole);
  }

  /** A URL upload is queued with its address: after a reload it resumes by itself. */
  async queueUrl(command: UrlShareUpload): Promise<void> {
    await this.journal.append({
      type: 'queued',
      taskId: command.taskId,
      at: this.now(),
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

  /** How a batch's large files (journal records of their own) resume and end. */
  largeFileHooks() {
    return {
      resumeOf: async (id: string) => {
        const previous = await this.task(id);
        // A cancel (a pause) gave the storage's upload up: only a failed or interrupted one can go on.
        const resumable = previous && previous.status !== 'completed' && previous.status !== 'cancelled' && previous.uploadId;
        return resumable ? previous : undefined;
      },
      finishedLarge: (id: string) => this.journal.forget(id),
    };
  }
}
