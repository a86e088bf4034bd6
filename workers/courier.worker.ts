import { TransferFailure, toTransferError } from './engine/failure';
import { browserTransport } from './transport/http';
import { readSource } from './transport/source-io';
import type { CourierAnswer, CourierRequest } from './transport/couriers';

/**
 * A courier of the copy pipeline (workers/transport/couriers.ts): reads sources into blobs and PUTs slices of them,
 * as the engine's worker asks. Everything it reads stays here until the engine ends it, which frees it all at once.
 */
const blobs = new Map<number, Blob>();
/** A send's progress crosses to the engine at most this often (the page shows it once a second). */
const PROGRESS_EVERY_MS = 250;
const running = new Map<number, AbortController>();
const answer = (message: CourierAnswer) => postMessage(message);

async function run(request: Exclude<CourierRequest, { type: 'abort' }>, signal: AbortSignal): Promise<CourierAnswer> {
  if (request.type === 'read') {
    const blob = await readSource(request.read, signal);
    blobs.set(request.id, blob);
    return { type: 'read', id: request.id };
  }
  const blob = blobs.get(request.blob);
  if (!blob) throw new TransferFailure({ code: 'upload_failed', serverMessage: 'no such read' });
  let reported = -Infinity;
  const response = await browserTransport.send({
    method: 'PUT',
    url: request.url,
    ...(request.headers && { headers: request.headers }),
    body: blob.slice(request.from, request.to),
    timeoutMs: request.timeoutMs,
    signal,
    onUploadProgress: (loaded) => {
      if (performance.now() - reported < PROGRESS_EVERY_MS) return;
      reported = performance.now();
      answer({ type: 'progress', id: request.id, loaded });
    },
  });
  return { type: 'sent', id: request.id, status: response.status, etag: response.header('ETag') };
}

onmessage = async (event: MessageEvent<CourierRequest>) => {
  const request = event.data;
  if (request.type === 'abort') return running.get(request.id)?.abort();
  const controller = new AbortController();
  running.set(request.id, controller);
  try {
    answer(await run(request, controller.signal));
  } catch (error) {
    answer({ type: 'failed', id: request.id, error: toTransferError(error, 'network') });
  } finally {
    running.delete(request.id);
  }
};
