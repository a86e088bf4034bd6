import { PART_TIMEOUT_MS, type TransferError } from '../../contract/transfer';
import type { ProgressMeter } from '../engine/progress';
import { isSuccess, send, stripQuotes } from './http';

/**
 * PUTs a whole object to a presigned URL with progress; resolves with its ETag (without quotes, when the storage
 * exposes it). Anything but 2xx fails with `upload_failed` and the status.
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
    onUploadProgress: (loaded) => meter.update(Math.min(loaded, body.size)),
  });
  if (!isSuccess(response.status)) throw { code: 'upload_failed', status: response.status } satisfies TransferError;
  meter.update(body.size);
  return stripQuotes(response.header('ETag'));
}
