import { i18n } from '@lingui/core';
import { fromCallback } from 'xstate';
import { isTransferError, type ShareOptions, type TransferError } from '../../contract/transfer';
import type { StoredCredentials } from '../../machines/auth.machine';
import type { TaskEvent, TaskInput } from '../../machines/task.machine';
import { apiAccess, transferEngine } from '../lib/engine-client';

/** What the upload page puts in a task: the file and how to share it. */
export interface UploadPayload {
  file: File;
  mimetype: string;
  storageConfigId?: string;
  options: ShareOptions;
}

/**
 * The real runner of the task machine: hands the task to the transfer engine in the worker and relays its
 * events. Stopping the runner (cancel, or leaving the running state) cancels the task in the engine.
 */
export const runTaskInEngine = (credentials: () => StoredCredentials) =>
  fromCallback<TaskEvent, TaskInput>(({ input, sendBack }) => {
    let finished = false;
    const finish = (event: TaskEvent) => {
      finished = true;
      sendBack(event);
    };
    if (input.type !== 'upload') {
      finish({ type: 'engine.failed', error: { code: 'unknown' } });
      return () => {};
    }
    const payload = input.payload as UploadPayload;
    transferEngine
      .uploadFile(
        { taskId: input.id, api: apiAccess(credentials(), i18n.locale), ...payload },
        (event) => sendBack(event.type === 'engine.stage' ? { type: event.type, stage: event.stage } : { type: event.type, progress: event.progress }),
      )
      .then(
        (result) => finish({ type: 'engine.done', result }),
        (error: unknown) => {
          const failure: TransferError = isTransferError(error) ? error : { code: 'unknown' };
          finish({ type: 'engine.failed', error: failure });
        },
      );
    return () => {
      if (!finished) void transferEngine.cancel(input.id);
    };
  });
