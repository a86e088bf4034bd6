import type { FsBatchResult } from '../../contract/fs';
import type { FsDelete, FsItemsResult } from '../../contract/transfer';
import { cancelled } from '../engine/failure';
import { callApi } from '../transport/api';
import { allFailed, emptyItemsResult, isCancelled, itemReporter, serverFailures } from './fs-items';
import { fsBase } from './multipart-protocol';
import type { PipelineContext } from './presigned-upload';

/** Paths per `batch-remove` call: one answer lists each path's result, and a cancel waits at most one batch. */
export const DELETE_BATCH = 100;

/** Removes files and folders (with everything in them) in batches; a failed path never stops the others. */
export async function fsDelete(command: FsDelete, context: PipelineContext): Promise<FsItemsResult> {
  const { taskId, api, paths } = command;
  const result = emptyItemsResult();
  const report = itemReporter(taskId, context.emit, paths.length, result, { signal: context.signal });
  context.emit({ type: 'engine.stage', taskId, stage: 'starting' });
  for (let from = 0; from < paths.length; from += DELETE_BATCH) {
    if (context.signal.aborted) throw cancelled();
    const batch = paths.slice(from, from + DELETE_BATCH);
    report(batch[0] ?? '');
    try {
      const answer = await callApi<FsBatchResult>(context.transport, api, `${fsBase(api)}/batch-remove`, {
        method: 'POST',
        body: { paths: batch },
        signal: context.signal,
        failure: 'unknown',
      });
      result.succeeded.push(...answer.succeeded);
      result.failed.push(...serverFailures(answer.failed));
    } catch (error) {
      if (isCancelled(error)) throw error;
      result.failed.push(...allFailed(batch, error));
    }
  }
  report(paths.at(-1) ?? '', true);
  return result;
}
