import { mimeTypeOf } from '../../../contract/mime';
import type { JobStatus } from '../../../contract/jobs';
import type { AppDeps, Principal } from '../../context';
import { ApiError } from '../../errors';
import { forEachAtOnce } from '../../storage/at-once';
import { assertSameFile } from '../fs/move';
import { placeKnown, releaseName, UPLOAD_HOLD_MS } from '../fs/free-names';
import { nameOf, normalizePath } from '../fs/paths';
import { callerOf, listMount, resolveInMount, type FsCaller, type MountTarget } from '../fs/resolve';
import { invalidateFolders } from '../fs/shared-directory-cache';
import { batchErrorOf, onStorage, storageError } from '../fs/storage-errors';
import { keepParent, kindAt } from '../fs/writes';
import { sizeMismatch } from '../fs/copy';
import { apiKeyPrincipal } from '../auth/api-keys';
import { copyObject, type CopyCheckpoint } from './copy-object';
import type { JobEvents } from './events';
import { countItems, findJobRow, type JobItemRow, type JobRow, type StoredMessage } from './records';

/** Files of one job copied at once. */
const FILES_AT_ONCE = 4;
/** Progress is written to the record at most this often (not per chunk). */
const PROGRESS_MS = 500;
/** Speed is measured over this window. */
const SPEED_WINDOW_MS = 5000;

/** Why a run stops before its items are done: the job paused or cancelled, the server stopping, the lease lost. */
export type StopReason = 'pause' | 'cancel' | 'stop' | 'lost';

class Stopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`job ${reason}`);
  }
}

/**
 * Runs the jobs this instance holds. A job is taken by its lease in the record (at most one instance runs it);
 * the run goes through its pending items a few at a time, writes its progress and renews its lease every
 * PROGRESS_MS, and notices there that the job was paused or cancelled (on any instance) or taken over.
 */
export class JobRunner {
  private readonly runs = new Map<string, JobRun>();

  constructor(
    private readonly deps: AppDeps,
    private readonly events: JobEvents,
    readonly instance: string,
  ) {}

  private get leaseMs() {
    return this.deps.config.jobLeaseSeconds * 1000;
  }

  /** Takes the job and runs it to its end or until it stops; `held` when another instance has it now. */
  async run(jobId: string): Promise<'done' | 'held'> {
    if (this.runs.has(jobId)) return 'held';
    const now = this.deps.now();
    const claimed = await this.deps.db
      .updateTable('jobs')
      .set((eb) => ({
        owner_instance: this.instance,
        lease_expires_at: new Date(now.getTime() + this.leaseMs).toISOString(),
        status: 'running',
        started_at: eb.fn.coalesce('started_at', eb.val(now.toISOString())),
        updated_at: now.toISOString(),
      }))
      .where('id', '=', jobId)
      .where('status', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('owner_instance', 'is', null), eb('owner_instance', '=', this.instance), eb('lease_expires_at', '<=', now.toISOString())]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) {
      const row = await findJobRow(this.deps.db, jobId);
      return row && (row.status === 'queued' || row.status === 'running') ? 'held' : 'done';
    }
    const row = (await findJobRow(this.deps.db, jobId)) as JobRow;
    await this.events.changed(jobId);
    const principal = await principalOf(this.deps, row);
    if (!principal) {
      await this.end(row, 'cancelled', 'api_key_invalid');
      return 'done';
    }
    const run = new JobRun(this.deps, this.events, this.instance, this.leaseMs, row, callerOf(principal));
    this.runs.set(jobId, run);
    try {
      const reason = await run.execute();
      return reason === 'stop' ? 'held' : 'done';
    } finally {
      this.runs.delete(jobId);
    }
  }

  /** Stops this instance's run of the job, if it has one (the record already says paused or cancelled). */
  interrupt(jobId: string, reason: 'pause' | 'cancel') {
    this.runs.get(jobId)?.stop(reason);
  }

  /** The server stops: every run puts its items in flight back and lets its job go, for another instance or the next start. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.runs.values()].map((run) => run.stop('stop')));
  }

  private async end(row: JobRow, status: JobStatus, reason: string) {
    const at = this.deps.now().toISOString();
    await this.deps.db
      .updateTable('jobs')
      .set({ status, error_reason: reason, finished_at: at, updated_at: at, owner_instance: null, lease_expires_at: null })
      .where('id', '=', row.id)
      .execute();
    await this.events.changed(row.id);
  }
}

/**
 * Who the job acts as, read again at each start: the admin, or the key as it is now. A key deleted, expired or
 * without its mount permission answers nothing, and the job is cancelled.
 */
async function principalOf(deps: AppDeps, row: JobRow): Promise<Principal | undefined> {
  if (row.principal_kind === 'admin') {
    const admin = await deps.db.selectFrom('admins').select(['id', 'username']).where('id', '=', row.principal_id).executeTakeFirst();
    return admin && { kind: 'admin', adminId: admin.id, username: admin.username, tokenHash: '' };
  }
  const key = await deps.db.selectFrom('api_keys').selectAll().where('id', '=', row.principal_id).executeTakeFirst();
  if (!key || key.mount_permission !== 1) return undefined;
  if (key.expires_at && new Date(key.expires_at).getTime() <= deps.now().getTime()) return undefined;
  return apiKeyPrincipal(key);
}

/** One run of one job on this instance. */
class JobRun {
  private readonly controller = new AbortController();
  private readonly inFlight = new Map<number, number>();
  private readonly touched = new Map<string, Set<string>>();
  private readonly samples: { at: number; bytes: number }[] = [];
  private current: string | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private finished: Promise<StopReason | undefined> | undefined;

  constructor(
    private readonly deps: AppDeps,
    private readonly events: JobEvents,
    private readonly instance: string,
    private readonly leaseMs: number,
    private readonly row: JobRow,
    private readonly caller: FsCaller,
  ) {}

  private get db() {
    return this.deps.db;
  }

  private get stopReason(): StopReason | undefined {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof Stopped ? reason.reason : undefined;
  }

  /** Asks the run to stop; resolves when it has. */
  async stop(reason: StopReason) {
    if (!this.controller.signal.aborted) this.controller.abort(new Stopped(reason));
    await this.finished;
  }

  execute(): Promise<StopReason | undefined> {
    this.finished = this.go();
    return this.finished;
  }

  private async go(): Promise<StopReason | undefined> {
    const jobId = this.row.id;
    // Items a run left in flight (a stop, a crash) start again, from their checkpoint where they have one.
    await this.db.updateTable('job_items').set({ status: 'pending' }).where('job_id', '=', jobId).where('status', '=', 'running').execute();
    const items = await this.db.selectFrom('job_items').selectAll().where('job_id', '=', jobId).where('status', '=', 'pending').orderBy('seq').execute();
    const timer = setInterval(() => void this.flush(), PROGRESS_MS);
    try {
      // Folders first (in order, parents before children), then files a few at a time, then a mirror's deletions.
      for (const kind of ['folder', 'file', 'delete'] as const) {
        await forEachAtOnce(
          items.filter((item) => item.kind === kind),
          kind === 'file' ? FILES_AT_ONCE : 1,
          (item) => this.item(item),
        );
      }
      if (this.row.type === 'move' && !this.stopReason) await this.pruneMovedFolders();
    } finally {
      clearInterval(timer);
      await this.flushing;
    }
    await this.invalidateTouched();
    await this.finish();
    return this.stopReason;
  }

  private async item(item: JobItemRow) {
    if (this.controller.signal.aborted) return;
    await this.db.updateTable('job_items').set({ status: 'running' }).where('job_id', '=', item.job_id).where('seq', '=', item.seq).execute();
    this.current = item.source_path ?? item.target_path;
    try {
      const outcome = await this.work(item);
      await this.setItem(item, { status: outcome, checkpoint: null });
    } catch (error) {
      if (this.controller.signal.aborted) {
        // Cut short by a pause, a cancel or a stop: it goes on later from its checkpoint (a cancel cleans it up).
        await this.setItem(item, { status: 'pending' });
        return;
      }
      const apiError = storageError(item.source_path ?? item.target_path, error);
      if (!(apiError instanceof ApiError)) throw apiError;
      if (apiError.status >= 500 && apiError.messageKey === 'internal') console.error(`Job ${item.job_id} item ${item.seq}:`, error);
      const message: StoredMessage = { key: apiError.messageKey, params: apiError.params };
      await this.setItem(item, { status: 'failed', reason: batchErrorOf(apiError), reason_message: JSON.stringify(message), checkpoint: null });
    } finally {
      this.inFlight.delete(item.seq);
    }
  }

  private setItem(item: JobItemRow, changes: Partial<Omit<JobItemRow, 'job_id' | 'seq'>>) {
    return this.db.updateTable('job_items').set(changes).where('job_id', '=', item.job_id).where('seq', '=', item.seq).execute();
  }

  private resolve(path: string) {
    return resolveInMount(this.deps, this.caller, normalizePath(path));
  }

  private touch(target: MountTarget) {
    const folders = this.touched.get(target.mount.id) ?? new Set<string>();
    folders.add(target.inner.join('/'));
    this.touched.set(target.mount.id, folders);
  }

  private async work(item: JobItemRow): Promise<'done' | 'skipped'> {
    if (item.kind === 'folder') {
      const folder = await this.resolve(item.target_path);
      if (folder.inner.length > 0) await onStorage(folder.path.text, () => folder.driver.makeFolder(folder.key));
      this.touch(folder);
      return 'done';
    }
    if (item.kind === 'delete') {
      const gone = await this.resolve(item.target_path);
      await onStorage(gone.path.text, async () => {
        await gone.driver.delete(gone.key);
        await keepParent(gone);
      });
      this.touch(gone);
      return 'done';
    }
    return this.copyFile(item);
  }

  /** One file copied (or moved) to its target under the job's conflict rule, checked, its source deleted for a move. */
  private async copyFile(item: JobItemRow): Promise<'done' | 'skipped'> {
    const from = await this.resolve(item.source_path as string);
    let to = await this.resolve(item.target_path);
    let reserved = false;
    if (!item.placed) {
      const placement = await placeKnown(this.deps, to, this.row.on_conflict, await kindAt(to), UPLOAD_HOLD_MS, true);
      if (placement.outcome === 'skipped') return 'skipped';
      to = placement.target;
      reserved = placement.reserved;
      // Resumed after a stop, the item writes to the name chosen now.
      await this.setItem(item, { target_path: to.path.text, placed: 1 });
    }
    const object = await onStorage(from.path.text, () => from.driver.stat(from.key));
    if (!object) throw new ApiError(404, 'fs_not_found', { path: from.path.text });
    try {
      if (this.row.type === 'move' && from.driver === to.driver) {
        await onStorage(from.path.text, () => from.driver.move(from.key, to.key));
        this.inFlight.set(item.seq, object.size);
      } else {
        await onStorage(to.path.text, () =>
          copyObject(
            { driver: from.driver, key: from.key },
            { driver: to.driver, key: to.key },
            {
              size: object.size,
              contentType: mimeTypeOf(nameOf(from.path)),
              resume: item.checkpoint ? (JSON.parse(item.checkpoint) as CopyCheckpoint) : undefined,
              onCheckpoint: async (checkpoint) => {
                await this.setItem(item, { checkpoint: JSON.stringify(checkpoint) });
              },
              onBytes: (bytes) => this.inFlight.set(item.seq, (this.inFlight.get(item.seq) ?? 0) + bytes),
              signal: this.controller.signal,
            },
          ),
        );
        const written = await onStorage(to.path.text, () => to.driver.stat(to.key));
        if (!written) throw new ApiError(404, 'fs_not_found', { path: to.path.text });
        if (written.size !== object.size) throw sizeMismatch();
        if (this.row.type === 'move') {
          // The source goes only once its copy is verified (fs/move.ts's rule).
          assertSameFile(object, written);
          await onStorage(from.path.text, () => from.driver.delete(from.key));
        }
      }
      if (this.row.type === 'move') {
        await onStorage(from.path.text, () => keepParent(from));
        this.touch(from);
      }
      this.touch(to);
      if (reserved || item.placed) await releaseName(this.deps, to);
      return 'done';
    } catch (error) {
      // A name this run reserved is kept while the item may go on (a pause or a stop); otherwise given back.
      if (!this.controller.signal.aborted && (reserved || item.placed)) await releaseName(this.deps, to);
      throw error;
    }
  }

  /** A move's source folders are removed, deepest first, once no file is left below them (a failed file keeps its folder). */
  private async pruneMovedFolders() {
    const folders = await this.db
      .selectFrom('job_items')
      .select('source_path')
      .where('job_id', '=', this.row.id)
      .where('kind', '=', 'folder')
      .where('source_path', 'is not', null)
      .execute();
    const paths = folders.map(({ source_path }) => source_path as string).sort((a, b) => b.split('/').length - a.split('/').length);
    for (const path of paths) {
      const folder = await this.resolve(path).catch(() => undefined);
      if (!folder || folder.inner.length === 0 || (await kindAt(folder)) !== 'folder') continue;
      const tree = await onStorage(folder.path.text, () => listMount(folder, true));
      if (tree.objects.length > 0) continue;
      await onStorage(folder.path.text, async () => {
        await folder.driver.removeFolder(folder.key);
        await keepParent(folder);
      });
      this.touch(folder);
    }
  }

  private async invalidateTouched() {
    const touched = [...this.touched.entries()];
    this.touched.clear();
    for (const [mountId, folders] of touched) await invalidateFolders(this.deps, mountId, folders);
  }

  private flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeProgress()).catch((error: unknown) => console.error(`Job ${this.row.id} progress:`, error));
    return this.flushing;
  }

  private speed(bytes: number): number | null {
    const at = performance.now();
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && (this.samples[0] as { at: number }).at < at - SPEED_WINDOW_MS) this.samples.shift();
    const first = this.samples[0] as { at: number; bytes: number };
    return at - first.at < 200 ? null : Math.round(((bytes - first.bytes) * 1000) / (at - first.at));
  }

  /** Progress and the lease in one write; a write that finds the job no longer ours-and-running stops the run. */
  private async writeProgress() {
    if (this.controller.signal.aborted) return;
    const counts = await countItems(this.db, this.row.id);
    const bytes = counts.bytesFinished + [...this.inFlight.values()].reduce((sum, n) => sum + n, 0);
    const now = this.deps.now();
    const result = await this.db
      .updateTable('jobs')
      .set({
        items_done: counts.done,
        items_skipped: counts.skipped,
        items_failed: counts.failed,
        bytes_done: bytes,
        speed: this.speed(bytes),
        current_item: this.current,
        lease_expires_at: new Date(now.getTime() + this.leaseMs).toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', this.row.id)
      .where('owner_instance', '=', this.instance)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const row = await findJobRow(this.db, this.row.id);
      const reason: StopReason = row?.status === 'paused' ? 'pause' : row?.status === 'cancelled' ? 'cancel' : 'lost';
      this.controller.abort(new Stopped(reason));
    }
    await this.invalidateTouched();
    await this.events.changed(this.row.id);
  }

  /** The record at the run's end: its counts, and its status unless a pause or cancel already set it. */
  private async finish() {
    const reason = this.stopReason;
    if (reason === 'lost') return;
    const counts = await countItems(this.db, this.row.id);
    const now = this.deps.now().toISOString();
    const ended = reason === undefined;
    const status: JobStatus | undefined = !ended
      ? undefined
      : counts.failed === 0
        ? 'completed'
        : counts.done + counts.skipped === 0
          ? 'failed'
          : 'partial';
    await this.db
      .updateTable('jobs')
      .set({
        items_done: counts.done,
        items_skipped: counts.skipped,
        items_failed: counts.failed,
        bytes_done: counts.bytesFinished,
        speed: null,
        current_item: null,
        owner_instance: null,
        lease_expires_at: null,
        updated_at: now,
        ...(status && { status, finished_at: now }),
      })
      .where('id', '=', this.row.id)
      .where('owner_instance', '=', this.instance)
      .execute();
    if (reason === 'cancel') await cleanUpCancelled(this.deps, this.row.id, this.caller);
    await this.events.changed(this.row.id);
  }
}

/**
 * What a cancelled job leaves in storage goes: multipart uploads its items had open are aborted (no stray
 * uploads), and the names its items held are given back.
 */
export async function cleanUpCancelled(deps: AppDeps, jobId: string, caller: FsCaller): Promise<void> {
  const open = await deps.db
    .selectFrom('job_items')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('status', 'in', ['pending', 'running'])
    .where('placed', '=', 1)
    .where('kind', '=', 'file')
    .execute();
  for (const item of open) {
    try {
      const target = await resolveInMount(deps, caller, normalizePath(item.target_path));
      if (item.checkpoint) {
        const { uploadId } = JSON.parse(item.checkpoint) as CopyCheckpoint;
        await target.driver.abortMultipart(target.key, uploadId);
      }
      await releaseName(deps, target);
      await deps.db.updateTable('job_items').set({ checkpoint: null }).where('job_id', '=', jobId).where('seq', '=', item.seq).execute();
    } catch (error) {
      console.error(`Job ${jobId}: cleaning up item ${item.seq} failed:`, error);
    }
  }
}

export { principalOf };
