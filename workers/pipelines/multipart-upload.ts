import type { EngineEvent, JournalEvent, JournalPart, JournalTask, JournalTaskSpec, TransferError, UploadStage } from '../../contract/transfer';
import { PART_TIMEOUT_MS } from '../../contract/transfer';
import { ProgressMeter } from '../engine/progress';
import { classifyFailure, type AttemptOutcome, type RetryDecision } from '../engine/retry';
import type { Scheduler } from '../engine/scheduler';
import type { Journal } from '../journal/store';
import { apply, missingParts } from '../journal/replay';
import { partRange, planUpload } from '../../contract/parts';
import { isSuccess, send, stripQuotes } from '../transport/http';
import type { MultipartProtocol } from './multipart-protocol';
import { PartUrls } from './part-urls';

export interface MultipartJob<R> {
  taskId: string;
  /** Where the bytes come from: a local file, or a blob produced by another step (URL download, copy). */
  source: Blob;
  /** What the journal's first event says of the task, besides the plan and size this pipeline adds. */
  describe: Omit<JournalTaskSpec, 'taskId' | 'partSize' | 'partCount' | 'size'>;
  protocol: MultipartProtocol<R>;
  /** The journal's record when resuming after a reload. */
  resume?: JournalTask;
  /** Maps this pipeline's 0–100 progress into the task's (URL uploads use 50–99). */
  progressWindow?: [number, number];
}

export interface MultipartContext {
  signal: AbortSignal;
  emit: (event: EngineEvent) => void;
  journal: Journal;
  scheduler: Scheduler;
  online: () => boolean;
  /** Resolves when the browser is back online (or rejects when the task is cancelled). */
  untilOnline: (signal: AbortSignal) => Promise<void>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * A large file in parts: init, then each part signed just before it is sent, sent under the shared
 * concurrency budget with retries, recorded in the journal as it lands, then complete. A cancel aborts the
 * upload on the storage; a failure keeps it so that a retry resumes from the first missing part.
 */
export async function multipartUpload<R>(job: MultipartJob<R>, context: MultipartContext): Promise<R> {
  const { taskId, source, protocol } = job;
  const stage = (value: UploadStage) => context.emit({ type: 'engine.stage', taskId, stage: value });
  const at = () => Date.now();
  stage('starting');

  let task = job.resume;
  if (!task) {
    const plan = planUpload(source.size);
    const queued: JournalEvent = {
      type: 'queued',
      taskId,
      at: at(),
      ...job.describe,
      partSize: plan.partSize,
      partCount: plan.partCount,
      size: source.size,
    };
    await context.journal.append(queued);
    // A new task is just its first event: no need to read the journal back.
    task = apply(undefined, queued);
  }
  if (!task) throw { code: 'unknown' } satisfies TransferError;
  const plan = { partSize: task.partSize, partCount: task.partCount };

  stage('initializing');
  let { fileId, uploadId } = task;
  let recordStart: Promise<void> | undefined;
  if (!fileId || !uploadId) {
    ({ fileId, uploadId } = await protocol.init(plan, context.signal));
    // Written while the first parts are signed; awaited before any part is recorded.
    recordStart = context.journal.append({ type: 'started', taskId, at: at(), fileId, uploadId });
  } else {
    // Trust the storage over the journal when it can tell: a part the journal saw finish but the storage lost
    // is sent again. A part only counts when the storage holds all of it: a request cut off by the reload can
    // leave a partial part behind (some S3-compatible stores list those), which must be sent again.
    const stored = await protocol.storedParts({ fileId, uploadId }, context.signal);
    if (stored) {
      const whole = stored.filter(
        (part) =>
          part.etag !== '' &&
          part.partNumber <= plan.partCount &&
          part.size === partRange(source.size, plan, part.partNumber).end - partRange(source.size, plan, part.partNumber).start,
      );
      task = { ...task, parts: Object.fromEntries(whole.map((part) => [part.partNumber, part])) };
    }
  }
  const ref = { fileId, uploadId };

  stage('uploading');
  const done = new Map(Object.values(task.parts).map((part) => [part.partNumber, part]));
  const [from, to] = job.progressWindow ?? [0, 100];
  const meter = new ProgressMeter(source.size, (progress) =>
    context.emit({
      type: 'engine.progress',
      taskId,
      progress: { ...progress, percent: Math.min(to, from + Math.floor(((to - from) * progress.percent) / 100)) },
    }),
  );
  // Only parts the storage acknowledged count: bytes handed to the browser say nothing of the line's speed.
  const report = () => {
    let loaded = 0;
    for (const part of done.values()) loaded += part.size;
    meter.update(Math.min(loaded, source.size));
  };
  report();
  const stopHeartbeat = meter.heartbeat(report);

  const queue = missingParts({ ...task, parts: Object.fromEntries(done) });
  const partUrls = new PartUrls(queue, (partNumbers) => protocol.sign(ref, partNumbers, context.signal));

  let waitingForNetwork = false;
  /** Before the next try: wait for the network (saying so), or back off; a cancel ends the wait at once. */
  const waitBeforeRetry = async (decision: RetryDecision) => {
    if (decision.action === 'pause') {
      if (!waitingForNetwork) {
        stage('waitingForNetwork');
        meter.stall();
      }
      waitingForNetwork = true;
      await context.untilOnline(context.signal);
      if (waitingForNetwork) stage('uploading');
      waitingForNetwork = false;
    }
    if (decision.action === 'backoff') await context.sleep(decision.delayMs, context.signal);
  };

  /**
   * One part, signed and sent, and tried again as the classifier says. A signing call that got no answer counts
   * as a try of the part (offline pauses it too); one our API refused ends the upload with that refusal.
   */
  const sendPart = async (partNumber: number): Promise<JournalPart> => {
    const range = partRange(source.size, plan, partNumber);
    let retries = 0;
    for (;;) {
      let url: string | undefined;
      try {
        url = await partUrls.urlFor(partNumber);
      } catch (error) {
        const failure = error as TransferError;
        const outcome: AttemptOutcome = failure.status !== undefined ? { status: failure.status } : { code: failure.code };
        const decision = classifyFailure(outcome, retries, context.online());
        if (decision.action === 'fail') throw failure.code === 'cancelled' ? ({ code: 'cancelled' } satisfies TransferError) : failure;
        if (decision.action === 'backoff') retries++;
        await waitBeforeRetry(decision);
        continue;
      }
      if (!url) throw { code: 'part_failed', part: partNumber } satisfies TransferError;
      let outcome: AttemptOutcome;
      try {
        const response = await send({
          method: 'PUT',
          url,
          body: source.slice(range.start, range.end),
          timeoutMs: PART_TIMEOUT_MS,
          signal: context.signal,
        });
        if (isSuccess(response.status)) {
          const etag = stripQuotes(response.header('ETag'));
          if (!etag) throw { code: 'part_failed', part: partNumber, status: response.status } satisfies TransferError;
          const part = { partNumber, size: range.end - range.start, etag };
          done.set(partNumber, part);
          report();
          return part;
        }
        outcome = { status: response.status, body: response.text };
      } catch (error) {
        const failure = error as TransferError;
        if (failure.code === 'part_failed') throw failure;
        outcome = { code: failure.code };
      }
      const decision = classifyFailure(outcome, retries, context.online());
      if (decision.action === 'fail') {
        if (outcome.code === 'cancelled') throw { code: 'cancelled' } satisfies TransferError;
        throw {
          code: 'part_failed',
          part: partNumber,
          ...(outcome.status !== undefined ? { status: outcome.status } : { serverMessage: outcome.code }),
        } satisfies TransferError;
      }
      if (decision.action === 'backoff') retries++;
      await waitBeforeRetry(decision);
    }
  };

  // The first parts are signed while the journal records the start.
  partUrls.signAhead();
  await recordStart;

  try {
    await Promise.all(
      queue.map(async (partNumber) => {
        const release = await context.scheduler.acquire(taskId, context.signal);
        let part: JournalPart;
        try {
          part = await sendPart(partNumber);
        } finally {
          release();
        }
        // Recorded once the slot is free: the next part need not wait for the journal's write.
        await context.journal.append({ type: 'partDone', taskId, at: at(), part });
      }),
    );
  } catch (error) {
    if (context.signal.aborted) {
      // Only a user's cancel gives up on the storage side; a failure keeps the parts for a retry.
      await protocol.abort(ref).catch(() => undefined);
      await context.journal.append({ type: 'cancelled', taskId, at: at() });
      throw { code: 'cancelled' } satisfies TransferError;
    }
    await context.journal.append({ type: 'failed', taskId, at: at(), error: error as TransferError });
    throw error;
  } finally {
    stopHeartbeat();
    context.scheduler.finish(taskId);
  }

  stage('processing');
  stage('completing');
  let result: R;
  try {
    const parts = [...done.values()].sort((a, b) => a.partNumber - b.partNumber).map(({ partNumber, etag }) => ({ partNumber, etag }));
    result = await protocol.complete(ref, parts, context.signal);
  } catch (error) {
    await context.journal.append({ type: 'failed', taskId, at: at(), error: error as TransferError });
    throw error;
  }
  await context.journal.append({ type: 'completed', taskId, at: at(), result });
  stage('completed');
  return result;
}
