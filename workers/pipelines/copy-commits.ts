import type { FsBatchCopy, FsBatchResult } from '../../contract/fs';
import type { ApiAccess, FsItemsResult } from '../../contract/transfer';
import { callApi } from '../transport/api';
import type { Transport } from '../transport/http';
import { recordOutcome } from './conflicts';
import { allFailed } from './fs-items';
import { fsBase } from './multipart-protocol';

/** A commit call waits this long for more finished copies to join it: one call confirms many. */
const COMMIT_GATHER_MS = 1000;

/** A client copy as the server planned it, with the outcome its commit will have. */
type PlannedCopy = FsBatchCopy['clientCopies'][number];

/**
 * Copies written to storage wait here for `batch-copy-commit` (a move's: `batch-move-commit`, which deletes each
 * source once its target is verified): one call at a time, each taking every copy that finished while the one
 * before ran or during the gathering wait (cut short once the task has written all). Results go to the task's
 * result, with the outcome the server planned for each, failures named by source path.
 */
export class Commits {
  private readonly pending: { copy: PlannedCopy; etag: string | undefined }[] = [];
  private running: Promise<void> | undefined;
  private flush: (() => void) | undefined;
  private flushing = false;
  /** The target mount of the last commit: where a move's folders are pruned from. */
  private committedTo: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly api: ApiAccess,
    private readonly signal: AbortSignal,
    private readonly result: FsItemsResult,
    private readonly operation: 'copy' | 'move' = 'copy',
  ) {}

  add(copy: PlannedCopy, etag: string | undefined) {
    this.pending.push({ copy, etag });
    this.running ??= this.drain();
  }

  /** Commits what waits now, and resolves when every copy added so far is committed or failed. */
  async settled() {
    this.flushing = true;
    this.flush?.();
    while (this.running) await this.running;
  }

  private async drain() {
    while (this.pending.length > 0) {
      if (!this.flushing) {
        await new Promise<void>((resolve) => {
          this.flush = resolve;
          setTimeout(resolve, COMMIT_GATHER_MS);
        });
      }
      await this.commit(this.pending.splice(0));
    }
    this.running = undefined;
  }

  private async commit(batch: { copy: PlannedCopy; etag: string | undefined }[]) {
    // One call per target mount: a task's copies mostly share one, and the server checks each call's against it.
    const mounts = [...new Set(batch.map(({ copy }) => copy.targetMountId))];
    for (const targetMountId of mounts) await this.commitTo(targetMountId, batch.filter(({ copy }) => copy.targetMountId === targetMountId));
  }

  private async commitTo(targetMountId: string, batch: { copy: PlannedCopy; etag: string | undefined }[]) {
    const byTarget = new Map(batch.map(({ copy }) => [copy.targetPath, copy]));
    const files = batch.map(({ copy, etag }) => ({
      targetPath: copy.targetPath,
      s3Path: copy.s3Path,
      contentType: copy.contentType,
      fileSize: copy.fileSize,
      ...(etag && { etag }),
      ...(this.operation === 'move' && { sourcePath: copy.sourcePath }),
    }));
    this.committedTo = targetMountId;
    try {
      const answer = await callApi<FsBatchResult>(this.transport, this.api, `${fsBase(this.api)}/batch-${this.operation}-commit`, {
        method: 'POST',
        body: { targetMountId, files },
        signal: this.signal,
        failure: 'commit_failed',
      });
      for (const path of answer.succeeded) recordOutcome(this.result, path, byTarget.get(path)?.outcome);
      for (const failure of answer.failed) {
        this.result.failed.push({ path: byTarget.get(failure.path)?.sourcePath ?? failure.path, error: { code: 'commit_failed', serverMessage: failure.message, reason: failure.error } });
      }
    } catch (error) {
      if (!this.signal.aborted) this.result.failed.push(...allFailed(batch.map(({ copy }) => copy.sourcePath), error));
    }
  }

  /**
   * After a move's last commit: the moved folders go when no file is left below them (a file whose copy failed
   * keeps its folder). A folder that stays is no failure: its files are listed already.
   */
  async pruneMovedFolders(sourcePaths: string[]) {
    const targetMountId = this.committedTo;
    if (!targetMountId) return;
    await callApi(this.transport, this.api, `${fsBase(this.api)}/batch-move-commit`, {
      method: 'POST',
      body: { targetMountId, files: [], pruneFolders: sourcePaths },
      signal: this.signal,
      failure: 'commit_failed',
    }).catch(() => undefined);
  }
}
