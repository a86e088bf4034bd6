import type { JournalEvent, JournalPart, JournalTask, JournalTaskSpec, UploadStage } from '../../contract/transfer';
import { PART_TIMEOUT_MS } from '../../contract/transfer';
import { cancelled, TransferFailure, toTransferError } from '../engine/failure';
import { ProgressMeter } from '../engine/progress';
import { classifyFailure, type AttemptOutcome, type RetryDecision } from '../engine/retry';
import type { Scheduler } from '../engine/scheduler';
import type { Journal } from '../journal/store';
import { apply, missingParts } from '../journal/replay';
import { partRange, planUpload, type UploadPlan } from '../../contract/parts';
import { isSuccess, stripQuotes } from '../transport/http';
import type { MultipartProtocol, UploadRef } from './multipart-protocol';
import { PartUrls } from './part-urls';
import type { PipelineContext } from './presigned-upload';

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

export interface MultipartContext extends PipelineContext {
  journal: Journal;
  scheduler: Scheduler;
  online: () => boolean;
  /** Resolves when the browser is back online (or rejects when the task is cancelled). */
  untilOnline: (signal: AbortSignal) => Promise<void>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A multipart upload the storage has started: what every step after init works on. */
export interface UploadRun<R> {
  job: MultipartJob<R>;
  context: MultipartContext;
  plan: UploadPlan;
  ref: UploadRef;
  /** Parts the storage holds, by number: those found at the start, then each one acknowledged. */
  done: Map<number, JournalPart>;
}

/**
 * A large file in parts: init, then each part signed just before it is sent, sent under the shared
 * concurrency budget with retries, recorded in the journal as it lands, then complete. A cancel aborts the
 * upload on the storage; a failure keeps it so that a retry resumes from the first missing part.
 */
export async function multipartUpload<R>(job: MultipartJob<R>, context: MultipartContext): Promise<R> {
  const stage = stageOf(job.taskId, context);
  stage('starting');
  const task = await planOrResume(job, context);
  stage('initializing');
  const { run, recorded } = await startOrReconcile(job, context, task);

  stage('uploading');
  const meter = progressMeter(run);
  // Only parts the storage acknowledged count: bytes handed to the browser say nothing of the line's speed.
  const report = () => {
    let loaded = 0;
    for (const part of run.done.values()) loaded += part.size;
    meter.update(Math.min(loaded, job.source.size));
  };
  report();
  const stopHeartbeat = meter.heartbeat(report);
  const queue = missingParts({ ...task, parts: Object.fromEntries(run.done) });
  // The first parts are signed while the journal records the start.
  const urls = signAhead(run, queue);
  await recorded;

  const waits = new RetryWaits(context, stage, () => meter.stall());
  try {
    await sendParts(run, queue, urls, waits, report);
  } catch (error) {
    return sendingFailed(run, error);
  } finally {
    stopHeartbeat();
    context.scheduler.finish(job.taskId);
  }
  const resend = async (lost: number[]) => {
    try {
      await sendParts(run, lost, signAhead(run, lost), waits, report);
    } finally {
      context.scheduler.finish(job.taskId);
    }
  };
  return completeUpload(run, { resend, waits });
}

const stageOf = (taskId: string, context: PipelineContext) => (stage: UploadStage) => context.emit({ type: 'engine.stage', taskId, stage });

/** The journal's record of the upload: the one to resume, or a new one with the plan for the source's size. */
export async function planOrResume<R>(job: MultipartJob<R>, context: MultipartContext): Promise<JournalTask> {
  if (job.resume) return job.resume;
  const plan = planUpload(job.source.size);
  const queued: JournalEvent = { type: 'queued', taskId: job.taskId, at: Date.now(), ...job.describe, partSize: plan.partSize, partCount: plan.partCount, size: job.source.size };
  await context.journal.append(queued);
  // A new task is just its first event: no need to read the journal back.
  const task = apply(undefined, queued);
  if (!task) throw new TransferFailure({ code: 'unknown' });
  return task;
}

/**
 * Starts the upload on the storage (its start is journaled while the first parts are signed: `recorded`), or, when
 * the journal has one, goes on with it, trusting the storage over the journal where it can tell: a part the journal
 * saw finish but the storage lost is sent again. A part only counts when the storage holds all of it: a request cut
 * off by a reload can leave a partial part behind (some S3-compatible stores list those), which must be sent again.
 */
export async function startOrReconcile<R>(job: MultipartJob<R>, context: MultipartContext, task: JournalTask): Promise<{ run: UploadRun<R>; recorded?: Promise<void> }> {
  const plan = { partSize: task.partSize, partCount: task.partCount };
  const runOf = (ref: UploadRef, parts: JournalPart[]): UploadRun<R> => ({ job, context, plan, ref, done: new Map(parts.map((part) => [part.partNumber, part])) });
  if (!task.fileId || !task.uploadId) {
    const ref = await job.protocol.init(plan, context.signal);
    const recorded = context.journal.append({ type: 'started', taskId: job.taskId, at: Date.now(), ...ref });
    return { run: runOf(ref, []), recorded };
  }
  const ref = { fileId: task.fileId, uploadId: task.uploadId };
  const stored = await job.protocol.storedParts(ref, context.signal);
  if (!stored) return { run: runOf(ref, Object.values(task.parts)) };
  const sizeOf = (partNumber: number) => {
    const range = partRange(job.source.size, plan, partNumber);
    return range.end - range.start;
  };
  const whole = stored.filter((part) => part.etag !== '' && part.partNumber <= plan.partCount && part.size === sizeOf(part.partNumber));
  return { run: runOf(ref, whole) };
}

/** The upload's progress, in the window of the task's progress it was given. */
function progressMeter<R>({ job, context }: UploadRun<R>): ProgressMeter {
  const [from, to] = job.progressWindow ?? [0, 100];
  return new ProgressMeter(job.source.size, (progress) =>
    context.emit({
      type: 'engine.progress',
      taskId: job.taskId,
      progress: { ...progress, percent: Math.min(to, from + Math.floor(((to - from) * progress.percent) / 100)) },
    }),
  );
}

/** The URLs of the parts in `queue`, the first batch of them being signed from now on. */
export function signAhead<R>({ job, context, ref }: UploadRun<R>, queue: number[]): PartUrls {
  const urls = new PartUrls(queue, (partNumbers) => job.protocol.sign(ref, partNumbers, context.signal));
  urls.signAhead();
  return urls;
}

/**
 * Waits before a part's next try, for all the parts of one upload: offline, the upload says once that it waits for
 * the network and its figures stop, until the network is back; otherwise it backs off. A cancel ends a wait at once.
 */
export class RetryWaits {
  private waitingForNetwork = false;

  constructor(
    private readonly context: MultipartContext,
    private readonly stage: (stage: UploadStage) => void,
    private readonly stall: () => void,
  ) {}

  async before(decision: RetryDecision): Promise<void> {
    if (decision.action === 'pause') {
      if (!this.waitingForNetwork) {
        this.stage('waitingForNetwork');
        this.stall();
      }
      this.waitingForNetwork = true;
      await this.context.untilOnline(this.context.signal);
      if (this.waitingForNetwork) this.stage('uploading');
      this.waitingForNetwork = false;
    }
    if (decision.action === 'backoff') await this.context.sleep(decision.delayMs, this.context.signal);
  }
}

/**
 * Every part in `queue` under the shared scheduler, each recorded in the journal once it landed (after its slot is
 * free: the next part need not wait for the journal's write). `onPart` hears of each part the storage acknowledged.
 */
export async function sendParts<R>(run: UploadRun<R>, queue: number[], urls: PartUrls, waits: RetryWaits, onPart: () => void): Promise<void> {
  const { job, context } = run;
  await Promise.all(
    queue.map(async (partNumber) => {
      const release = await context.scheduler.acquire(job.taskId, context.signal);
      let part: JournalPart;
      try {
        part = await sendPart(run, partNumber, urls, waits);
        run.done.set(partNumber, part);
        onPart();
      } finally {
        release();
      }
      await context.journal.append({ type: 'partDone', taskId: job.taskId, at: Date.now(), part });
    }),
  );
}

/**
 * One part, signed and sent, and tried again as the classifier says. A signing call that got no answer counts as a
 * try of the part (offline pauses it too); one our API refused ends the upload with that refusal.
 */
export async function sendPart<R>({ job, context, plan }: UploadRun<R>, partNumber: number, urls: PartUrls, waits: RetryWaits): Promise<JournalPart> {
  const range = partRange(job.source.size, plan, partNumber);
  let retries = 0;
  const nextTry = async (decision: RetryDecision) => {
    if (decision.action === 'backoff') retries++;
    await waits.before(decision);
  };
  for (;;) {
    let url: string | undefined;
    try {
      url = await urls.urlFor(partNumber);
    } catch (error) {
      const failure = toTransferError(error);
      const outcome: AttemptOutcome = failure.status !== undefined ? { status: failure.status } : { code: failure.code };
      const decision = classifyFailure(outcome, retries, context.online());
      if (decision.action === 'fail') throw failure.code === 'cancelled' ? cancelled() : error;
      await nextTry(decision);
      continue;
    }
    if (!url) throw new TransferFailure({ code: 'part_failed', part: partNumber });
    let outcome: AttemptOutcome;
    try {
      const response = await context.transport.send({ method: 'PUT', url, body: job.source.slice(range.start, range.end), timeoutMs: PART_TIMEOUT_MS, signal: context.signal });
      if (isSuccess(response.status)) {
        const etag = stripQuotes(response.header('ETag'));
        if (!etag) throw new TransferFailure({ code: 'part_failed', part: partNumber, status: response.status });
        return { partNumber, size: range.end - range.start, etag };
      }
      outcome = { status: response.status, body: response.text };
    } catch (error) {
      const failure = toTransferError(error);
      if (failure.code === 'part_failed') throw error;
      outcome = { code: failure.code };
    }
    const decision = classifyFailure(outcome, retries, context.online());
    if (decision.action === 'fail') {
      if (outcome.code === 'cancelled') throw cancelled();
      throw new TransferFailure({
        code: 'part_failed',
        part: partNumber,
        ...(outcome.status !== undefined ? { status: outcome.status } : { serverMessage: outcome.code }),
      });
    }
    await nextTry(decision);
  }
}

/** Times completing may find parts missing and send them again before the upload fails. */
const MOST_RESENDS = 2;

/**
 * Asks the storage to complete the upload from its parts in order; journals how that ended. A passing failure (no
 * answer, 429, 5xx: a storage briefly out of reach) is tried again as a part would be. A storage that relays parts on
 * as they arrive (WebDAV, SFTP, FTP through this server) keeps no copy of them: when its relay failed, completing
 * finds them missing, and `resend` sends the ones it lost again from the source.
 */
export async function completeUpload<R>(run: UploadRun<R>, { resend, waits }: { resend: (lost: number[]) => Promise<void>; waits: RetryWaits }): Promise<R> {
  const { job, context, ref } = run;
  const stage = stageOf(job.taskId, context);
  stage('processing');
  stage('completing');
  let result: R;
  let resends = 0;
  let retries = 0;
  for (;;) {
    try {
      const parts = [...run.done.values()].sort((a, b) => a.partNumber - b.partNumber).map(({ partNumber, etag }) => ({ partNumber, etag }));
      result = await job.protocol.complete(ref, parts, context.signal);
      break;
    } catch (error) {
      const refusal = toTransferError(error);
      const decision = classifyFailure(refusal.status !== undefined ? { status: refusal.status } : { code: refusal.code }, retries, context.online());
      if (decision.action === 'backoff' || decision.action === 'pause') {
        if (decision.action === 'backoff') retries += 1;
        try {
          await waits.before(decision);
        } catch (cancel) {
          return sendingFailed(run, cancel);
        }
        stage('completing');
        continue;
      }
      const lost = resends < MOST_RESENDS ? await lostParts(run, error).catch(() => []) : [];
      resends += 1;
      if (lost.length === 0) {
        await recordFailure(run, error);
        throw error;
      }
      for (const partNumber of lost) run.done.delete(partNumber);
      stage('resendingLost');
      try {
        await resend(lost);
      } catch (failure) {
        return sendingFailed(run, failure);
      }
      stage('completing');
    }
  }
  await context.journal.append({ type: 'completed', taskId: job.taskId, at: Date.now(), result });
  stage('completed');
  return result;
}

/**
 * The parts this run counts as done that the storage no longer holds, when completing refused for parts missing
 * (`multipart_part_missing`): the ones it names, else those a listing lacks; [] for any other refusal.
 */
async function lostParts<R>({ job, context, ref, done }: UploadRun<R>, error: unknown): Promise<number[]> {
  if (!(error instanceof TransferFailure) || error.data?.issue !== 'missing' || error.data.field !== 'parts') return [];
  const named = error.data.partNumbers;
  if (Array.isArray(named)) return named.filter((partNumber): partNumber is number => typeof partNumber === 'number' && done.has(partNumber));
  const stored = await job.protocol.storedParts(ref, context.signal);
  if (!stored) return [];
  const held = new Map(stored.map((part) => [part.partNumber, part]));
  return [...done.values()].filter((part) => held.get(part.partNumber)?.etag !== part.etag || held.get(part.partNumber)?.size !== part.size).map((part) => part.partNumber);
}

/** A user's cancel: the storage gives up the upload (no stray parts stay behind) and the journal says so. */
export async function abortUpload<R>({ job, context, ref }: UploadRun<R>): Promise<void> {
  await job.protocol.abort(ref).catch(() => undefined);
  await context.journal.append({ type: 'cancelled', taskId: job.taskId, at: Date.now() });
}

/** Parts that could not be sent: only a user's cancel gives up on the storage side; a failure keeps the parts for a retry. */
async function sendingFailed<R>(run: UploadRun<R>, error: unknown): Promise<never> {
  if (run.context.signal.aborted) {
    await abortUpload(run);
    throw cancelled();
  }
  await recordFailure(run, error);
  throw error;
}

const recordFailure = <R>({ job, context }: UploadRun<R>, error: unknown) =>
  context.journal.append({ type: 'failed', taskId: job.taskId, at: Date.now(), error: toTransferError(error) });
