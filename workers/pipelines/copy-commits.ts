import type { FsBatchResult, FsClientCopy } from '../../contract/fs';
import type { ApiAccess, FsItemsResult } from '../../contract/transfer';
import { callApi } from '../transport/api';
import type { Transport } from '../transport/http';
import { allFailed } from './fs-items';
import { fsBase } from './multipart-protocol';

/** A commit call waits this long for more finished copies to join it: one call confirms many. */
const COMMIT_GATHER_MS = 1000;

/**
 * Copies written to storage wait here for `batch-copy-commit`: one call at a time, each taking every copy that
 * finished while the one before ran or during the gathering wait (cut short once the task has written all).
 * Results go to the task's result, failures named by source path.
 */
export class Commits {
  private readonly pending: { copy: FsClientCopy; etag: string | undefined }[] = [];
  private running: Promise<void> | undefined;
  private flush: (() => void) | undefined;
  private flushing = false;

  constructor(
    private readonly transport: Transport,
    private readonly api: ApiAccess,
    private readonly signal: AbortSignal,
    private readonly result: FsItemsResult,
  ) {}

  add(copy: FsClientCopy, etag: string | undefined) {
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

  private async commit(batch: { copy: FsClientCopy; etag: string | undefined }[]) {
    const byTarget = new Map(batch.map(({ copy }) => [copy.targetPath, copy]));
    const files = batch.map(({ copy, etag }) => ({ targetPath: copy.targetPath, s3Path: copy.s3Path, contentType: copy.contentType, fileSize: copy.fileSize, ...(etag && { etag }) }));
    try {
      // One target mount per batch-copy: every client copy of a task goes to the same one.
      const answer = await callApi<FsBatchResult>(this.transport, this.api, `${fsBase(this.api)}/batch-copy-commit`, {
        method: 'POST',
        body: { targetMountId: batch[0]!.copy.targetMountId, files },
        signal: this.signal,
        failure: 'commit_failed',
      });
      this.result.succeeded.push(...answer.succeeded);
      for (const failure of answer.failed) {
        this.result.failed.push({ path: byTarget.get(failure.path)?.sourcePath ?? failure.path, error: { code: 'commit_failed', serverMessage: failure.message } });
      }
    } catch (error) {
      if (!this.signal.aborted) this.result.failed.push(...allFailed(batch.map(({ copy }) => copy.sourcePath), error));
    }
  }
}
