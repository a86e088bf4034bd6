import type { FsBatchResult } from '../../contract/fs';
import { PROGRESS_EVENTS_PER_SECOND, type EngineEvent, type FsItemsResult, type TransferError } from '../../contract/transfer';
import { toTransferError } from '../engine/failure';

const MIN_INTERVAL_MS = 1000 / PROGRESS_EVENTS_PER_SECOND;

/**
 * A task over many items reports the item it is on and the counts so far, and its progress in items: at most
 * PROGRESS_EVENTS_PER_SECOND times a second (each report costs the page's main thread two messages and a render,
 * and a copy goes through dozens of small files a second), the first and the `last` always. A report held back goes
 * out, with the counts of that moment, once its interval has passed: a lane that then spends minutes on one large
 * file must not leave an older file and older counts on screen. Nothing goes out once `signal` has aborted.
 */
export function itemReporter(
  taskId: string,
  emit: (event: EngineEvent) => void,
  total: number,
  result: FsItemsResult,
  {
    now = () => performance.now(),
    signal,
    progressInBytes = false,
  }: { now?: () => number; signal?: AbortSignal; /** Progress is bytes, sent by the task's meter: report only counts. */ progressInBytes?: boolean } = {},
) {
  let lastAt = Number.NEGATIVE_INFINITY;
  let heldBack: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelHeldBack = () => {
    clearTimeout(timer);
    timer = undefined;
    heldBack = undefined;
  };
  signal?.addEventListener('abort', cancelHeldBack, { once: true });
  const send = (currentFile: string) => {
    cancelHeldBack();
    lastAt = now();
    const counts = { success: result.succeeded.length, skipped: result.skipped.length, failed: result.failed.length };
    const loaded = counts.success + counts.skipped + counts.failed;
    emit({ type: 'engine.item', taskId, currentFile, counts });
    if (progressInBytes) return;
    emit({
      type: 'engine.progress',
      taskId,
      progress: { loaded, total, percent: total ? Math.floor((loaded * 100) / total) : 100, speed: 0, secondsLeft: null },
    });
  };
  return (currentFile: string, last = false) => {
    const sinceLast = now() - lastAt;
    if (last || sinceLast >= MIN_INTERVAL_MS) return send(currentFile);
    if (signal?.aborted) return;
    heldBack = currentFile;
    timer ??= setTimeout(() => {
      if (heldBack !== undefined) send(heldBack);
    }, MIN_INTERVAL_MS - sinceLast);
  };
}

export const emptyItemsResult = (): FsItemsResult => ({ succeeded: [], skipped: [], failed: [] });

/** The server's per-path failures, as transfer errors that carry its (translated) message. */
export const serverFailures = (failed: FsBatchResult['failed']): FsItemsResult['failed'] =>
  failed.map((item) => ({ path: item.path, error: { code: 'unknown', serverMessage: item.message, reason: item.error } }));

/** A whole request refused: each of its paths failed for that reason (as the plain error a result carries). */
export const allFailed = (paths: string[], error: unknown): FsItemsResult['failed'] => {
  const failure = toTransferError(error);
  return paths.map((path) => ({ path, error: failure }));
};

export const isCancelled = (error: unknown) => (error as TransferError | undefined)?.code === 'cancelled';

/**
 * Runs `count` lanes (each takes work from a shared queue until it is empty) and waits for all of them, so that no
 * request is left on its way; then fails with the first lane's failure, if any (a cancel ends every lane at once).
 */
export async function inLanes(count: number, lane: () => Promise<void>): Promise<void> {
  const lanes = await Promise.allSettled(Array.from({ length: count }, lane));
  const stopped = lanes.find((outcome) => outcome.status === 'rejected');
  if (stopped) throw stopped.reason;
}
