import { randomUUID } from 'node:crypto';
import { isJobEnded, type Actor, type CreateJobRequest, type Job, type JobStatus } from '../../../contract/jobs';
import type { FsConflictPolicy } from '../../../contract/fs';
import { creatorOf, type AppDeps, type Principal } from '../../context';
import { ApiError } from '../../errors';
import type { Lang } from '../../i18n/messages';
import { callerOf } from '../fs/resolve';
import { JobEvents } from './events';
import { planSync, planTransfer, syncItems, type JobPlan } from './plan';
import { queueFor, type JobQueue } from './queue';
import { findJobRow, insertJob, listJobRows, presentJob, refreshCounts, type JobRow } from './records';
import { cleanUpCancelled, JobRunner, principalOf } from './runner';
import { emitEvent } from '../events/bus';
import { jobObject } from '../events/objects';

/** A caller's view of jobs: a key sees and steers its own, the admin every job. */
const ownerFilter = (principal: Principal) => (principal.kind === 'admin' ? undefined : creatorOf(principal));

const notFound = () => new ApiError(404, 'job_not_found');
const wrongState = (status: JobStatus) => new ApiError(409, 'job_wrong_state', { status }, { status });

/**
 * The jobs of one app: records, queue, runner and change events together. Started by index.ts (or by the first
 * jobs request of a test app); on start the queue takes up the jobs the records leave queued or running.
 */
export class Jobs {
  readonly events: JobEvents;
  private readonly queue: JobQueue;
  private readonly runner: JobRunner;
  /** This app's name as the holder of a job's lease (`owner_instance`). */
  readonly instance = randomUUID();
  private starting: Promise<void> | undefined;

  constructor(private readonly deps: AppDeps) {
    this.events = new JobEvents(deps);
    this.queue = queueFor(deps);
    this.runner = new JobRunner(deps, this.events, this.instance);
  }

  start(): Promise<void> {
    this.starting ??= (async () => {
      await this.events.start();
      await this.queue.start((jobId) => this.runner.run(jobId));
    })();
    return this.starting;
  }

  /** Jobs this instance is running now (0 before the jobs started). */
  running(): number {
    return this.runner.running;
  }

  /** A clean shutdown: runs stop and let their jobs go (another instance, or the next start, goes on with them). */
  async stop(): Promise<void> {
    if (!this.starting) return;
    await this.starting.catch(() => undefined);
    await this.runner.stopAll();
    await this.queue.stop();
    await this.events.stop();
    this.starting = undefined;
  }

  /** Plans and queues a job; `origin`: a schedule started it (as its admin), and the task manager names the schedule. */
  async create(principal: Principal, input: CreateJobRequest, lang: Lang, origin?: { actor: Actor; scheduleId: string }): Promise<Job> {
    await this.start();
    if (principal.kind === 'anonymous') throw new ApiError(401, 'unauthorized');
    const caller = callerOf(principal);
    let plan: JobPlan;
    let describe: { summary: string; target: string; onConflict: JobRow['on_conflict']; syncMode: JobRow['sync_mode'] };
    if (input.type === 'sync') {
      if (input.mode === 'mirror' && !input.confirmMirror) {
        throw new ApiError(400, 'mirror_unconfirmed', {}, { field: 'confirmMirror', issue: 'mirror_unconfirmed' });
      }
      plan = await syncItems(this.deps, await planSync(this.deps, caller, input.source, input.target, input.mode));
      describe = { summary: `${input.source.text} → ${input.target.text}`, target: input.target.text, onConflict: 'replace', syncMode: input.mode };
    } else {
      const transfer = await planTransfer(this.deps, caller, input.type, input.items);
      plan = transfer;
      const first = input.items[0] as { sourcePath: string };
      const target = transfer.targets[0]?.path.text ?? '/';
      const more = input.items.length > 1 ? ` +${input.items.length - 1}` : '';
      describe = { summary: `${first.sourcePath}${more} → ${target}`, target, onConflict: input.onConflict, syncMode: null };
    }
    const id = randomUUID();
    const now = this.deps.now().toISOString();
    await insertJob(
      this.deps.db,
      {
        id,
        type: input.type,
        status: 'queued',
        created_by: creatorOf(principal),
        created_by_kind: origin?.actor.kind ?? principal.kind,
        created_by_name: origin?.actor.name ?? (principal.kind === 'admin' ? principal.username : principal.name),
        created_by_id: origin?.actor.id ?? (principal.kind === 'apiKey' ? principal.keyId : null),
        principal_kind: principal.kind,
        principal_id: principal.kind === 'admin' ? principal.adminId : principal.keyId,
        summary: describe.summary,
        target: describe.target,
        on_conflict: describe.onConflict,
        sync_mode: describe.syncMode,
        schedule_id: origin?.scheduleId ?? null,
        items_total: plan.items.filter((item) => item.kind !== 'folder').length,
        bytes_total: plan.bytes,
        created_at: now,
        updated_at: now,
      },
      plan.items,
    );
    await this.events.changed(id);
    await this.queue.send(id);
    return this.read(principal, id, lang);
  }

  /** The job, when the caller may see it (a key: its own; another's is answered as missing). */
  async row(principal: Principal, id: string): Promise<JobRow> {
    const row = await findJobRow(this.deps.db, id);
    const owner = ownerFilter(principal);
    if (!row || (owner && row.created_by !== owner)) throw notFound();
    return row;
  }

  async read(principal: Principal, id: string, lang: Lang): Promise<Job> {
    return presentJob(this.deps.db, await this.row(principal, id), lang);
  }

  async list(principal: Principal, query: { status?: JobStatus; limit: number; offset: number }, lang: Lang) {
    const { rows, total } = await listJobRows(this.deps.db, { ...query, createdBy: ownerFilter(principal) });
    return {
      items: await Promise.all(rows.map((row) => presentJob(this.deps.db, row, lang))),
      pagination: { total, limit: query.limit, offset: query.offset, hasMore: query.offset + rows.length < total },
    };
  }

  /** Moves the job from one of `from` to `to` in one conditional write; 409 when it is in another state. */
  private async transition(principal: Principal, id: string, from: JobStatus[], to: JobStatus): Promise<JobRow> {
    const row = await this.row(principal, id);
    const now = this.deps.now().toISOString();
    const result = await this.deps.db
      .updateTable('jobs')
      .set({ status: to, updated_at: now, ...(isJobEnded(to) && { finished_at: now, speed: null, current_item: null }) })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw wrongState((await findJobRow(this.deps.db, id))?.status ?? row.status);
    if (isJobEnded(to)) emitEvent(this.deps, 'job.finished', jobObject(row, to, now));
    await this.events.changed(id);
    return row;
  }

  async pause(principal: Principal, id: string, lang: Lang): Promise<Job> {
    await this.transition(principal, id, ['queued', 'running'], 'paused');
    this.runner.interrupt(id, 'pause');
    return this.read(principal, id, lang);
  }

  async resume(principal: Principal, id: string, lang: Lang): Promise<Job> {
    await this.start();
    await this.transition(principal, id, ['paused'], 'queued');
    await this.queue.send(id);
    return this.read(principal, id, lang);
  }

  async cancel(principal: Principal, id: string, lang: Lang): Promise<Job> {
    const row = await this.transition(principal, id, ['queued', 'running', 'paused'], 'cancelled');
    this.runner.interrupt(id, 'cancel');
    // A run elsewhere cleans up when it notices; a job no instance runs is cleaned up here.
    const acting = await principalOf(this.deps, row);
    if (acting && !row.owner_instance) await cleanUpCancelled(this.deps, id, callerOf(acting));
    return this.read(principal, id, lang);
  }

  /** Only the failed items again: they become pending, and the job is queued. */
  /**
   * Runs the failed items again (and, of a cancelled job, the ones it did not reach); `onConflict`, when given, is the
   * user's choice for the names the first run found taken.
   */
  async retryFailed(principal: Principal, id: string, lang: Lang, onConflict?: FsConflictPolicy): Promise<Job> {
    await this.start();
    const row = await this.row(principal, id);
    const retryable = row.status === 'cancelled' || ((row.status === 'partial' || row.status === 'failed') && row.items_failed > 0);
    if (!retryable) throw wrongState(row.status);
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('job_items')
        .set({ status: 'pending', reason: null, reason_message: null, placed: row.type === 'sync' ? 1 : 0 })
        .where('job_id', '=', id)
        .where('status', '=', 'failed')
        .execute();
      await trx
        .updateTable('jobs')
        .set({ status: 'queued', finished_at: null, error_reason: null, updated_at: this.deps.now().toISOString(), ...(onConflict && { on_conflict: onConflict }) })
        .where('id', '=', id)
        .execute();
    });
    await refreshCounts(this.deps.db, id);
    await this.events.changed(id);
    await this.queue.send(id);
    return this.read(principal, id, lang);
  }
}

const apps = new WeakMap<AppDeps, Jobs>();

/** The app's jobs (one per app, so each test app has its own). */
export function jobsOf(deps: AppDeps): Jobs {
  let jobs = apps.get(deps);
  if (!jobs) {
    jobs = new Jobs(deps);
    apps.set(deps, jobs);
  }
  return jobs;
}
