import { isJobEnded, type Job } from '../../contract/jobs';
import type { FsConflict, ServerJobPayload, ServerJobResult, TransferError, TransferProgress } from '../../contract/transfer';
import type { RestoredStatus, RunnerEvent, RunnerInput, TaskInput } from '../../machines/task.machine';
import { ApiRequestError } from '../lib/api/client';
import { commandJob, createJob, getJob } from '../lib/api/jobs';
import type { CreateJobBody } from '../../contract/jobs';
import { jobFeed } from './job-feed';

/**
 * Server jobs as tasks of the task manager: the task follows its job through the job feed, and the jobs this
 * browser started are remembered (by id, in localStorage) so that a reopened tab shows them where they are.
 */

const KNOWN_JOBS_KEY = 'clipstash.serverJobs';

/** A job this browser started, with the label its task was given in the user's language. */
interface KnownJob {
  id: string;
  label: string;
}

function knownJobs(): KnownJob[] {
  try {
    const jobs = JSON.parse(localStorage.getItem(KNOWN_JOBS_KEY) ?? '[]') as unknown;
    return Array.isArray(jobs) ? jobs.filter((job): job is KnownJob => typeof job?.id === 'string' && typeof job?.label === 'string') : [];
  } catch {
    return [];
  }
}

const rememberJobs = (jobs: KnownJob[]) => localStorage.setItem(KNOWN_JOBS_KEY, JSON.stringify(jobs));

/** The task manager dropped the task: its job is no longer this browser's to show. */
export const forgetServerJob = (jobId: string) => rememberJobs(knownJobs().filter((job) => job.id !== jobId));

/** The task of a job the server has just accepted. */
export async function startServerJob(request: CreateJobBody, label: string): Promise<TaskInput> {
  const job = await createJob(request);
  rememberJobs([...knownJobs(), { id: job.id, label }]);
  return { id: job.id, type: job.type, label, payload: { kind: 'serverJob', jobId: job.id } };
}

const restoredStatusOf = (job: Job): RestoredStatus => (job.status === 'queued' ? 'running' : job.status);

/** The jobs this browser started, as tasks where they are now; jobs the server no longer knows are forgotten. */
export async function restoreServerJobs(): Promise<TaskInput[]> {
  const known = knownJobs();
  const found = await Promise.all(known.map(({ id }) => getJob(id).catch((error: unknown) => (error instanceof ApiRequestError && error.status === 404 ? null : undefined))));
  rememberJobs(known.filter((_, index) => found[index] !== null));
  return known.flatMap(({ label }, index) => {
    const job = found[index];
    if (!job) return [];
    const restored = { status: restoredStatusOf(job), progress: progressOf(job), ...(isJobEnded(job.status) && { result: resultOf(job) }) };
    return [{ id: job.id, type: job.type, label, payload: { kind: 'serverJob', jobId: job.id }, restored }];
  });
}

export function progressOf(job: Job): TransferProgress {
  const { done, total } = job.bytes;
  const speed = job.speed ?? 0;
  return {
    loaded: done,
    total,
    percent: total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0,
    speed,
    secondsLeft: speed > 0 && total > done ? Math.ceil((total - done) / speed) : null,
  };
}

/** Reasons of failures on the storage's or the server's side, with the status they stand for: worth another try. */
const TRANSIENT_REASONS: Record<string, number> = { storage_unavailable: 502, internal: 500, timeout: 504 };

/** A failure the server gave as a reason: retried only where another try may mend it (contract/transfer.ts). */
const errorOf = ({ reason, message }: Job['failures'][number]): TransferError => ({
  code: 'unknown',
  reason,
  serverMessage: message,
  ...(TRANSIENT_REASONS[reason] !== undefined && { status: TRANSIENT_REASONS[reason] }),
});

/** The job as it ended; its failures for a name taken are conflicts the user decides on. */
export function resultOf(job: Job): ServerJobResult {
  const taken = job.failures.filter((failure) => failure.reason === 'fs_exists');
  const conflicts: FsConflict[] = taken.map((failure) => ({ path: failure.path, targetPath: failure.path, identical: false }));
  return {
    job,
    failed: job.failures.filter((failure) => failure.reason !== 'fs_exists').map((failure) => ({ path: failure.path, error: errorOf(failure) })),
    ...(conflicts.length > 0 && { conflicts }),
  };
}

const countsOf = (job: Job) => ({ success: job.items.done, skipped: job.items.skipped, failed: job.items.failed });

/**
 * Follows one job until it ends, relaying its progress as the engine's events. A retry (the run after a partial or
 * failed end, or after the user decided on conflicts) first asks the server to retry the failed items; a task
 * resumed from pause asks it to resume. Ends that came before this run's command are not this run's end.
 */
export function followServerJob(input: RunnerInput, payload: ServerJobPayload, sendBack: (event: RunnerEvent) => void): () => void {
  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  const first = async (): Promise<Job> => {
    const job = await getJob(payload.jobId);
    if (input.resolution) return commandJob(payload.jobId, 'retry-failed', { onConflict: input.resolution.decision.choice });
    if (input.previous !== undefined || ['partial', 'failed', 'cancelled'].includes(job.status)) return commandJob(payload.jobId, 'retry-failed');
    if (job.status === 'paused') return commandJob(payload.jobId, 'resume');
    return job;
  };
  const relay = (job: Job) => {
    if (stopped) return;
    sendBack({ type: 'engine.progress', progress: progressOf(job) });
    sendBack({ type: 'engine.item', currentFile: job.currentItem ?? '', counts: countsOf(job) });
    if (!isJobEnded(job.status)) return;
    stopped = true;
    unsubscribe?.();
    if (job.status === 'cancelled') sendBack({ type: 'engine.failed', error: { code: 'cancelled' } });
    else if (job.status === 'failed' && job.items.done === 0 && job.failures.length === 0) sendBack({ type: 'engine.failed', error: { code: 'unknown' } });
    else sendBack({ type: 'engine.done', result: resultOf(job) });
  };
  first().then(
    (job) => {
      if (stopped) return;
      let started = job.updatedAt;
      relay(job);
      if (stopped) return;
      unsubscribe = jobFeed.subscribe(payload.jobId, (next) => {
        // A stale snapshot of the ended job (from before the retry) would end this run at once.
        if (next.updatedAt < started) return;
        started = next.updatedAt;
        relay(next);
      });
    },
    (error: unknown) => {
      if (stopped) return;
      stopped = true;
      const status = error instanceof ApiRequestError ? error.status : undefined;
      const message = error instanceof Error ? error.message : undefined;
      sendBack({ type: 'engine.failed', error: { code: status ? 'unknown' : 'network', ...(status && { status }), ...(message && { serverMessage: message }) } });
    },
  );
  return () => {
    stopped = true;
    unsubscribe?.();
  };
}

/** The user's cancel or pause, told to the server; the job's events then bring the task to its new state. */
export const tellServerJob = (payload: ServerJobPayload, command: 'cancel' | 'pause') => void commandJob(payload.jobId, command).catch(() => undefined);
