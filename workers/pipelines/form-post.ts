import { PART_TIMEOUT_MS, type ApiAccess, type TransferError } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';
import { classifyFailure, type AttemptOutcome } from '../engine/retry';
import { apiHeaders, parseEnvelope, type Envelope } from '../transport/api';
import { isSuccess } from '../transport/http';
import type { MultipartContext } from './multipart-upload';

export type FormPostContext = Pick<MultipartContext, 'signal' | 'transport' | 'scheduler' | 'online' | 'sleep'>;

export interface FormPost {
  taskId: string;
  access: ApiAccess;
  /** Under `/api`. */
  path: string;
  /** Made anew for each attempt. */
  form: () => FormData;
  /** Waits while the browser is offline (and says so to the task). */
  waitForNetwork: () => Promise<void>;
  /** Each attempt, as its request starts. */
  onAttempt?: () => void;
  /** Before each back-off's wait. */
  onBackoff?: () => void;
  onUploadProgress?: (loaded: number, total: number) => void;
  /** What a refusal that is not tried again means for the task. */
  refusal: (status: number, body: Envelope | undefined) => TransferError;
}

/**
 * One form POST to the API under a slot of the shared scheduler, tried again as a part would be: after 429, 5xx
 * and network errors with back-off, after the network came back when offline. Any other refusal fails it.
 */
export async function postFormWithRetries<T>(context: FormPostContext, post: FormPost): Promise<T> {
  let retries = 0;
  for (;;) {
    const release = await context.scheduler.acquire(post.taskId, context.signal);
    post.onAttempt?.();
    let outcome: AttemptOutcome;
    let body: Envelope | undefined;
    try {
      const response = await context.transport.send({
        method: 'POST',
        url: `${post.access.baseUrl}/api${post.path}`,
        headers: apiHeaders(post.access),
        body: post.form(),
        timeoutMs: PART_TIMEOUT_MS,
        signal: context.signal,
        onUploadProgress: post.onUploadProgress,
      });
      body = parseEnvelope(response.text);
      if (isSuccess(response.status) && body?.data) return body.data as T;
      outcome = { status: response.status, body: response.text };
    } catch (error) {
      outcome = { code: (error as TransferError).code };
    } finally {
      release();
    }
    const decision = classifyFailure(outcome, retries, context.online());
    if (decision.action === 'pause') {
      await post.waitForNetwork();
      continue;
    }
    if (decision.action === 'backoff') {
      retries++;
      post.onBackoff?.();
      await context.sleep(decision.delayMs, context.signal);
      continue;
    }
    if (outcome.code) throw new TransferFailure({ code: outcome.code });
    throw new TransferFailure(post.refusal(outcome.status ?? 0, body));
  }
}

/**
 * The files' bytes sent so far, from the form's: never all of them, since only the server's answer says they are
 * stored (the form's boundaries and headers make its total a little over the files' size).
 */
export const sentShare = (size: number, loaded: number, total: number): number =>
  total > 0 ? Math.max(0, Math.min(size - 1, Math.floor((loaded / total) * size))) : 0;
