import type { FsBatchCopy, FsBatchResult, FsClientCopy } from '../../contract/fs';
import { PART_TIMEOUT_MS, type ApiAccess, type FsCopy, type FsItemsResult, type TransferError } from '../../contract/transfer';
import { ProgressMeter } from '../engine/progress';
import { callApi } from '../transport/api';
import { isSuccess, send, stripQuotes } from '../transport/http';
import { allFailed, emptyItemsResult, isCancelled, itemReporter, serverFailures } from './fs-items';
import { fsBase } from './multipart-protocol';
import type { MultipartContext } from './multipart-upload';

/**
 * Copies files and folders between mount paths. The server copies what stays in one storage and answers the
 * rest as client copies: each is streamed here from its signed download URL into its signed target (one PUT, or
 * parts of the size the server chose, each part's bytes released once sent), then confirmed with
 * `batch-copy-commit`. One failed file never stops the others; a cancel aborts what is in flight and every
 * multipart upload the server opened for this copy, so no half-written object stays behind.
 */
export async function fsCopy(command: FsCopy, context: MultipartContext): Promise<FsItemsResult> {
  const { taskId, api } = command;
  const result = emptyItemsResult();
  context.emit({ type: 'engine.stage', taskId, stage: 'starting' });
  const answer = await callApi<FsBatchCopy>(api, `${fsBase(api)}/batch-copy`, {
    method: 'POST',
    body: { items: command.items, skipExisting: command.skipExisting },
    signal: context.signal,
    failure: 'unknown',
  });
  result.succeeded.push(...answer.copied);
  result.skipped.push(...answer.skipped);
  result.failed.push(...serverFailures(answer.failed));
  const copies = answer.clientCopies;
  const report = itemReporter(taskId, context.emit, result.succeeded.length + result.skipped.length + result.failed.length + copies.length, result);
  report(copies[0]?.sourcePath ?? command.items[0]?.sourcePath ?? '');
  if (copies.length === 0) return result;

  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  const total = copies.reduce((sum, copy) => sum + copy.fileSize, 0);
  let finishedBytes = 0;
  const meter = new ProgressMeter(total, (progress) => context.emit({ type: 'engine.progress', taskId, progress }));
  const pending = new Set(copies);
  try {
    for (const copy of copies) {
      report(copy.sourcePath);
      try {
        const etag = await streamCopy(api, copy, context, (loaded) => meter.update(finishedBytes + loaded));
        await commit(api, copy, etag, context.signal);
        result.succeeded.push(copy.targetPath);
      } catch (error) {
        if (isCancelled(error) || context.signal.aborted) throw { code: 'cancelled' } satisfies TransferError;
        await abortUpload(api, copy);
        result.failed.push(...allFailed([copy.sourcePath], error));
      } finally {
        pending.delete(copy);
        finishedBytes += copy.fileSize;
        meter.update(finishedBytes);
      }
    }
  } catch (error) {
    // The one in flight and every one not reached: their multipart uploads go, so storage keeps no parts.
    const unfinished = copies.filter((copy) => pending.has(copy) || !result.succeeded.includes(copy.targetPath));
    await Promise.all(unfinished.map((copy) => abortUpload(api, copy)));
    throw error;
  }
  report(copies.at(-1)?.sourcePath ?? '');
  return result;
}

/** Streams one file from its source to its target; resolves with the ETag (multipart: completed). */
async function streamCopy(api: ApiAccess, copy: FsClientCopy, context: MultipartContext, onBytes: (loaded: number) => void): Promise<string | undefined> {
  let response: Response;
  try {
    response = await fetch(copy.downloadUrl, { signal: context.signal });
  } catch {
    throw { code: context.signal.aborted ? 'cancelled' : 'network' } satisfies TransferError;
  }
  if (!response.ok || !response.body) throw { code: 'upload_failed', status: response.status, serverMessage: 'download' } satisfies TransferError;
  if (copy.upload.kind === 'put') {
    // Small (at most one part): read whole, then one PUT.
    const blob = await response.blob();
    return putPart(copy.upload.url, blob, copy.contentType, context.signal, onBytes);
  }
  const { uploadId, partSize } = copy.upload;
  const parts: { partNumber: number; etag: string }[] = [];
  const loaded = new Map<number, number>();
  const report = () => onBytes([...loaded.values()].reduce((sum, bytes) => sum + bytes, 0));
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let partNumber = 0;
  // Parts go out as the shared scheduler grants slots; waiting for a slot before reading on bounds memory to the
  // parts in flight.
  for await (const chunk of partsOf(response.body, partSize)) {
    if (failure !== undefined) break;
    const number = ++partNumber;
    const release = await context.scheduler.acquire(copy.targetPath, context.signal);
    const part = (async () => {
      try {
        const url = await signPart(api, copy, uploadId, number, context.signal);
        const etag = await putPart(url, chunk, undefined, context.signal, (bytes) => {
          loaded.set(number, bytes);
          report();
        });
        if (!etag) throw { code: 'part_failed', part: number } satisfies TransferError;
        parts.push({ partNumber: number, etag });
      } catch (error) {
        failure ??= error;
      } finally {
        release();
      }
    })();
    inFlight.add(part);
    void part.then(() => inFlight.delete(part));
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  parts.sort((a, b) => a.partNumber - b.partNumber);
  context.scheduler.finish(copy.targetPath);
  await callApi(api, `${fsBase(api)}/multipart/complete`, {
    method: 'POST',
    body: { path: copy.targetPath, uploadId, key: copy.s3Path, parts, contentType: copy.contentType, fileSize: copy.fileSize },
    signal: context.signal,
    failure: 'commit_failed',
  });
  return undefined;
}

/**
 * The response body in blobs of exactly `size` bytes (the last may be shorter): at most one part is held here at
 * a time, so memory stays at a part however large the file.
 */
export async function* partsOf(body: ReadableStream<Uint8Array<ArrayBuffer>>, size: number): AsyncGenerator<Blob> {
  const reader = body.getReader();
  let pieces: Uint8Array<ArrayBuffer>[] = [];
  let held = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let rest = value;
    while (held + rest.length >= size) {
      const take = size - held;
      pieces.push(rest.subarray(0, take));
      yield new Blob(pieces);
      pieces = [];
      held = 0;
      rest = rest.subarray(take);
    }
    if (rest.length) {
      pieces.push(rest);
      held += rest.length;
    }
  }
  if (held > 0) yield new Blob(pieces);
}

async function signPart(api: ApiAccess, copy: FsClientCopy, uploadId: string, partNumber: number, signal: AbortSignal): Promise<string> {
  const signed = await callApi<{ urls: { partNumber: number; url: string }[] }>(api, `${fsBase(api)}/multipart/sign`, {
    method: 'POST',
    body: { path: copy.targetPath, uploadId, key: copy.s3Path, partNumbers: [partNumber] },
    signal,
    failure: 'part_failed',
  });
  const url = signed.urls[0]?.url;
  if (!url) throw { code: 'part_failed', part: partNumber } satisfies TransferError;
  return url;
}

async function putPart(url: string, body: Blob, contentType: string | undefined, signal: AbortSignal, onBytes: (loaded: number) => void) {
  const response = await send({
    method: 'PUT',
    url,
    ...(contentType && { headers: { 'Content-Type': contentType } }),
    body,
    timeoutMs: PART_TIMEOUT_MS,
    signal,
    onUploadProgress: (loaded) => onBytes(Math.min(loaded, body.size)),
  });
  if (!isSuccess(response.status)) throw { code: 'upload_failed', status: response.status } satisfies TransferError;
  onBytes(body.size);
  return stripQuotes(response.header('ETag'));
}

async function commit(api: ApiAccess, copy: FsClientCopy, etag: string | undefined, signal: AbortSignal) {
  const answer = await callApi<FsBatchResult>(api, `${fsBase(api)}/batch-copy-commit`, {
    method: 'POST',
    body: { targetMountId: copy.targetMountId, files: [{ targetPath: copy.targetPath, s3Path: copy.s3Path, contentType: copy.contentType, fileSize: copy.fileSize, ...(etag && { etag }) }] },
    signal,
    failure: 'commit_failed',
  });
  const failure = answer.failed[0];
  if (failure) throw { code: 'commit_failed', serverMessage: failure.message } satisfies TransferError;
}

async function abortUpload(api: ApiAccess, copy: FsClientCopy) {
  if (copy.upload.kind !== 'multipart') return;
  await callApi(api, `${fsBase(api)}/multipart/abort`, {
    method: 'POST',
    body: { path: copy.targetPath, uploadId: copy.upload.uploadId, key: copy.s3Path },
    failure: 'unknown',
  }).catch(() => undefined);
}
