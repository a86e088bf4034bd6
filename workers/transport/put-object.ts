import { PART_TIMEOUT_MS } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';
import type { ProgressMeter } from '../engine/progress';
import { isSuccess, stripQuotes, type Transport } from './http';

/**
 * PUTs a whole object to a presigned URL; resolves with its ETag (without quotes, when the storage exposes it).
 * Progress moves when the storage acknowledged the bytes, not as the browser takes them. Anything but 2xx fails
 * with `upload_failed` and the status.
 */
export async function putObject(
  transport: Transport,
  url: string,
  body: Blob,
  contentType: string,
  meter: ProgressMeter,
  signal: AbortSignal,
): Promise<string | undefined> {
  const response = await transport.send({
    method: 'PUT',
    url,
    headers: { 'Content-Type': contentType },
    body,
    timeoutMs: PART_TIMEOUT_MS,
    signal,
  });
  if (!isSuccess(response.status)) throw new TransferFailure({ code: 'upload_failed', status: response.status });
  meter.update(body.size);
  return stripQuotes(response.header('ETag'));
}
