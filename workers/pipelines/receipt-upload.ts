import type { ExpenseReceipt } from '../../contract/expenses';
import type { ReceiptUpload, TransferError, UploadStage } from '../../contract/transfer';
import { ProgressMeter } from '../engine/progress';
import { apiFailure, type Envelope } from '../transport/api';
import { postFormWithRetries, sentShare } from './form-post';
import type { MultipartContext } from './multipart-upload';

/** What a receipt's upload needs of the engine: its transport, the shared scheduler and the network's state. */
export type ReceiptContext = Pick<MultipartContext, 'signal' | 'emit' | 'transport' | 'scheduler' | 'online' | 'untilOnline' | 'sleep'>;

/**
 * A receipt (an image or a PDF) of an expense claim: one form POST to the claim's receipts, under a slot of the
 * shared scheduler, tried again as a part would be (after 429, 5xx and network errors with back-off; once the
 * browser is back online when it went offline). Any other refusal fails the task with the server's own words.
 * A retry after a lost answer may store the receipt twice; the claim shows both, and its owner can delete one.
 */
export async function receiptUpload(command: ReceiptUpload, context: ReceiptContext): Promise<ExpenseReceipt> {
  const { taskId, api, claimId, file } = command;
  const { signal } = context;
  const stage = (value: UploadStage) => context.emit({ type: 'engine.stage', taskId, stage: value });
  const meter = new ProgressMeter(file.size, (progress) => context.emit({ type: 'engine.progress', taskId, progress }));
  stage('starting');
  meter.update(0);
  try {
    const receipt = await postFormWithRetries<ExpenseReceipt>(context, {
      taskId,
      access: api,
      path: `/expenses/${encodeURIComponent(claimId)}/receipts`,
      form: () => formOf(file),
      onAttempt: () => stage('uploading'),
      onUploadProgress: (loaded, total) => meter.update(sentShare(file.size, loaded, total)),
      waitForNetwork: async () => {
        stage('waitingForNetwork');
        meter.stall();
        await context.untilOnline(signal);
      },
      onBackoff: () => meter.stall(),
      refusal: receiptRefusal,
    });
    meter.update(file.size);
    stage('completed');
    return receipt;
  } finally {
    context.scheduler.finish(taskId);
  }
}

/** The form the receipts route reads: the one file, under its own name. */
function formOf(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/**
 * What a refusal means for a receipt. A 403 or 409 is about a share's storage or link to the other uploads; here
 * it says the claim is not the user's or no longer editable, which only the server's message tells apart.
 */
export function receiptRefusal(status: number, body: Envelope | undefined): TransferError {
  const failure = apiFailure(status, body, 'unknown');
  return failure.code === 'storage_forbidden' || failure.code === 'slug_taken' ? { ...failure, code: 'unknown' } : failure;
}
