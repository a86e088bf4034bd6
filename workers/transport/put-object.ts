import { PART_TIMEOUT_MS, type TransferError } from '../../contract/transfer';
import type { ProgressMeter } from '../engine/progress';
import { isSuccess, send, stripQuotes } from './http';

/**
 * PUTs a whole object to a presigned URL; resolves with its ETag (without quotes, when the storage exposes it).
 * Progress moves when the storage acknowledged the bytes, not as the browser takes them. Anything but 2xx fails
 * with `upload_failed` and the status.
 */
export async function putObject(
  url: string,
  body: Blob,
  contentType: string,
  meter: ProgressMeter,
  signal: AbortSignal,
): Promise<string | undefined> {
  const response = await send({
    method: 'PUT',
    url,
    headers: { 'Content-Type': contentType },
    body,
    timeoutMs: PART_TIMEOUT_MS,
    signal,
  });
  if (!isSuccess(response.status)) throw { code: 'upload_failed', status: response.status } satisfies TransferError;
  meter.update(body.size);
  return stripQuotes(response.header('ETag'));
}
