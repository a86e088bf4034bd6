import type { FsBatchCopy, FsBatchMove, FsClientCopy } from '../../contract/fs';
import { PART_TIMEOUT_MS, type ApiAccess, type FsCopy, type FsItemsResult } from '../../contract/transfer';
import { cancelled, TransferFailure } from '../engine/failure';
import { ProgressMeter } from '../engine/progress';
import { callApi } from '../transport/api';
import { Couriers, type CourierBytes } from '../transport/couriers';
import { isSuccess, stripQuotes, type Transport } from '../transport/http';
import { failuresToConflicts, recordOutcome } from './conflicts';
import { Commits } from './copy-commits';
import { allFailed, emptyItemsResult, isCancelled, itemReporter, serverFailures } from './fs-items';
import { fsBase, fsProtocol } from './multipart-protocol';
import { PartUrls } from './part-urls';
import { SourceParts } from './source-parts';
import { readAfter, readGroupAfter, readUnits, type ReadAhead } from './source-reads';
import type { MultipartContext } from './multipart-upload';

/**
 * Files copied at once. Each holds one request slot of the shared scheduler while it reads and writes (a large
 * file's parts take one each), so the scheduler's budget per task still bounds the requests in flight; copying
 * several keeps the slots busy between one small file and the next.
 */
const FILES_AT_ONCE = 3;
/**
 * Files a lane reads ahead of the one it writes, one read after another (a small file whole, into a blob): with
 * two, the next file is mostly read before its write may start, even when a read takes as long as a write.
 */
const FILES_READ_AHEAD = 2;

/**
 * Copies files and folders between mount paths. The server copies what stays in one storage and answers the
 * rest as client copies: each is read from its signed download URL and written to its signed target (one PUT, or
 * parts of the size the server chose, slices of ranges read a few parts at a time: SourceParts), a few files at a
 * time, by the task's couriers (the bytes never reach this worker), and confirmed with `batch-copy-commit` (the
 * copies finished meanwhile in one call). One failed file never stops the others; a cancel aborts what is in
 * flight and every multipart upload the server opened for this copy that is not complete, so no half-written
 * object stays behind.
 */
export async function fsCopy(command: FsCopy, context: MultipartContext): Promise<FsItemsResult> {
  // The task's first courier loads while the copy is planned (a plan without client copies ends it unused); every
  // courier ends with the task, however it ends.
  const couriers = new Couriers();
  couriers.warm();
  try {
    return await planAndCopy(command, context, couriers);
  } finally {
    couriers.close();
  }
}

async function planAndCopy(command: FsCopy, context: MultipartContext, couriers: Couriers): Promise<FsItemsResult> {
  const { taskId, api, signal } = { ...command, signal: context.signal };
  const result = emptyItemsResult();
  context.emit({ type: 'engine.stage', taskId, stage: 'starting' });
  const answer = await planItems(command, context, result);
  const copies = answer.clientCopies;
  const report = itemReporter(taskId, context.emit, result.succeeded.length + result.skipped.length + result.failed.length + copies.length, result, { signal: context.signal });
  report(copies[0]?.sourcePath ?? command.items[0]?.sourcePath ?? '');
  if (copies.length === 0) return result;

  context.emit({ type: 'engine.stage', taskId, stage: 'uploading' });
  const meter = new ProgressMeter(
    copies.reduce((sum, copy) => sum + copy.fileSize, 0),
    (progress) => context.emit({ type: 'engine.progress', taskId, progress }),
  );
  const loaded = new Map<FsClientCopy, number>();
  const showBytes = () => meter.update([...loaded.values()].reduce((sum, bytes) => sum + bytes, 0));
  const commits = new Commits(context.transport, api, signal, result, command.operation);
  /** Multipart uploads that storage completed: the rest are aborted on a cancel. */
  const completed = new Set<FsClientCopy>();
  const queue = readUnits(copies, answer.readGroups);
  const read = couriers.read.bind(couriers);
  const lane = async () => {
    // This lane's next files, each with its read: one read at a time, kept going while files are written so that
    // a write rarely waits for its bytes (the two sides wait on different servers). A lane takes a read group
    // whole: its files' reads are one request, and the next read starts when the group is nearly written.
    const ahead: ReadAhead<CourierBytes>[] = [];
    const readMore = () => {
      while (ahead.length < FILES_READ_AHEAD) {
        const unit = queue.shift();
        if (!unit) return;
        const previous = ahead.at(-1)?.read;
        if ('group' in unit) ahead.push(...readGroupAfter(previous, unit.group, unit.copies, signal, read));
        else ahead.push({ copy: unit.copy, read: readAfter(previous, unit.copy, signal, read) });
      }
    };
    readMore();
    for (let next = ahead.shift(); next; next = ahead.shift()) {
      readMore();
      const current = next.copy;
      report(current.sourcePath);
      const onBytes = (bytes: number) => {
        loaded.set(current, bytes);
        showBytes();
      };
      try {
        const etag = await streamCopy(api, taskId, current, await next.read, couriers, context, onBytes);
        completed.add(current);
        commits.add(current, etag);
      } catch (error) {
        if (isCancelled(error) || signal.aborted) throw cancelled();
        await abortUpload(context.transport, api, current);
        result.failed.push(...allFailed([current.sourcePath], error));
      } finally {
        onBytes(current.fileSize);
      }
    }
  };
  try {
    // Every lane ends (a cancel ends each at once) before uploads are aborted, so that no part is still on its way.
    const stopped = (await Promise.allSettled(Array.from({ length: Math.min(FILES_AT_ONCE, copies.length) }, lane))).find((lane) => lane.status === 'rejected');
    if (stopped) {
      // Every multipart upload not completed goes, the ones in flight and those not reached: storage keeps no parts.
      await Promise.all(copies.filter((copy) => !completed.has(copy)).map((copy) => abortUpload(context.transport, api, copy)));
      throw stopped.reason;
    }
    await commits.settled();
    if (command.operation === 'move') await commits.pruneMovedFolders(command.items.map((item) => item.sourcePath));
  } finally {
    context.scheduler.finish(taskId);
  }
  report(copies.at(-1)?.sourcePath ?? '', true);
  failuresToConflicts(result);
  return result;
}

type PlannedCopies = Pick<FsBatchCopy, 'clientCopies' | 'readGroups'>;

/**
 * Asks the server to copy (or move) the items, one request per `onConflict` among them: it does what stays in one
 * storage and answers the rest as client copies. What it did goes into `result`, with each file's outcome.
 */
async function planItems(command: FsCopy, context: MultipartContext, result: FsItemsResult): Promise<PlannedCopies> {
  const planned: PlannedCopies = { clientCopies: [], readGroups: [] };
  const policies = [...new Set(command.items.map((item) => item.onConflict ?? 'fail'))];
  for (const onConflict of policies) {
    const items = command.items.filter((item) => (item.onConflict ?? 'fail') === onConflict).map(({ sourcePath, targetPath }) => ({ sourcePath, targetPath }));
    const answer = await callApi<FsBatchCopy | FsBatchMove>(context.transport, command.api, `${fsBase(command.api)}/batch-${command.operation}`, {
      method: 'POST',
      body: { items, onConflict },
      signal: context.signal,
      failure: 'unknown',
    });
    const done = new Map((answer.outcomes ?? []).map((entry) => [entry.targetPath, entry.outcome]));
    for (const path of 'moved' in answer ? answer.moved : answer.copied) recordOutcome(result, path, done.get(path));
    result.skipped.push(...answer.skipped);
    result.failed.push(...serverFailures(answer.failed));
    planned.clientCopies.push(...answer.clientCopies);
    planned.readGroups?.push(...(answer.readGroups ?? []));
  }
  failuresToConflicts(result);
  return planned;
}

/** The fs multipart calls (sign, complete, abort) for a copy's target, which the server already opened. */
function targetProtocol(transport: Transport, api: ApiAccess, copy: FsClientCopy) {
  const slash = copy.targetPath.lastIndexOf('/') + 1;
  return fsProtocol(transport, api, { folder: copy.targetPath.slice(0, slash), filename: copy.targetPath.slice(slash), contentType: copy.contentType, size: copy.fileSize });
}

/**
 * Copies one file from its source to its target (a small one from the blob read ahead); resolves with the ETag
 * of a single PUT (multipart: completed).
 */
async function streamCopy(
  api: ApiAccess,
  taskId: string,
  copy: FsClientCopy,
  smallFile: CourierBytes | undefined,
  couriers: Couriers,
  context: MultipartContext,
  onBytes: (loaded: number) => void,
): Promise<string | undefined> {
  const { signal, scheduler } = context;
  if (copy.upload.kind === 'put') {
    if (!smallFile) throw new TypeError('a single-PUT copy is read ahead (readAfter)');
    const release = await scheduler.acquire(taskId, signal);
    try {
      return await putPart(couriers, copy.upload.url, smallFile, copy.contentType, signal, onBytes);
    } finally {
      release();
    }
  }
  const { uploadId, partSize, partCount } = copy.upload;
  const protocol = targetProtocol(context.transport, api, copy);
  const ref = { fileId: copy.s3Path, uploadId };
  const urls = new PartUrls(
    Array.from({ length: partCount }, (_, index) => index + 1),
    (partNumbers) => protocol.sign(ref, partNumbers, signal),
  );
  const parts: { partNumber: number; etag: string }[] = [];
  const loaded = new Map<number, number>();
  const report = () => onBytes([...loaded.values()].reduce((sum, bytes) => sum + bytes, 0));
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  // Parts go out as the shared scheduler grants slots, each a slice of a range of the source read ahead into a
  // courier's blob, and no byte passes through a script. A copy that fails stops the range it read ahead and gives
  // up what it read and will not send, so that the courier holding it can end.
  const readAhead = new AbortController();
  const reads = AbortSignal.any([signal, readAhead.signal]);
  const partsIn = (from: number, to: number) => Math.ceil((to - from) / partSize);
  const source = new SourceParts(copy.fileSize, partSize, (from, to) => couriers.read({ url: copy.downloadUrl, range: [from, to], size: to - from }, partsIn(from, to), reads));
  try {
    for (let number = 1; number <= partCount && failure === undefined; number++) {
      const release = await scheduler.acquire(taskId, signal);
      const part = (async () => {
        try {
          const [url, bytes] = await Promise.all([urls.urlFor(number), source.part(number)]);
          if (!url) throw new TransferFailure({ code: 'part_failed', part: number });
          const etag = await putPart(couriers, url, bytes, undefined, signal, (sent) => {
            loaded.set(number, sent);
            report();
          });
          if (!etag) throw new TransferFailure({ code: 'part_failed', part: number });
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
  } finally {
    // A cancel ends the loop at once (no slot is granted): the parts in flight end first, so that the upload is
    // aborted after its last part and not beside one that storage would still keep.
    await Promise.all(inFlight);
    readAhead.abort();
    source.dispose((range) => couriers.release(range));
  }
  if (failure !== undefined) throw failure;
  parts.sort((a, b) => a.partNumber - b.partNumber);
  await protocol.complete(ref, parts, signal);
  return undefined;
}

async function putPart(couriers: Couriers, url: string, body: CourierBytes, contentType: string | undefined, signal: AbortSignal, onBytes: (loaded: number) => void) {
  const response = await couriers.put(body, {
    url,
    ...(contentType && { headers: { 'Content-Type': contentType } }),
    timeoutMs: PART_TIMEOUT_MS,
    signal,
    onUploadProgress: (loaded) => onBytes(Math.min(loaded, body.size)),
  });
  if (!isSuccess(response.status)) throw new TransferFailure({ code: 'upload_failed', status: response.status });
  onBytes(body.size);
  return stripQuotes(response.etag);
}

async function abortUpload(transport: Transport, api: ApiAccess, copy: FsClientCopy) {
  if (copy.upload.kind !== 'multipart') return;
  await targetProtocol(transport, api, copy)
    .abort({ fileId: copy.s3Path, uploadId: copy.upload.uploadId })
    .catch(() => undefined);
}
