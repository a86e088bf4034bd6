import { mimeTypeOf } from '../../../contract/mime';
import type { JobStatus } from '../../../contract/jobs';
import type { AppDeps, Principal } from '../../context';
import { ApiError } from '../../errors';
import { forEachAtOnce } from '../../storage/at-once';
import { SourceChangedError, type ListedObject } from '../../storage/driver';
import { assertSameFile } from '../fs/move';
import { placeMany, releaseName, UPLOAD_HOLD_MS, type Placement } from '../fs/free-names';
import { nameOf, normalizePath, parentOf } from '../fs/paths';
import { callerOf, listMount, resolveInMount, withInner, type FsCaller, type MountTarget } from '../fs/resolve';
import { invalidateFolders } from '../fs/shared-directory-cache';
import { batchErrorOf, onStorage, storageError } from '../fs/storage-errors';
import { keepParent, kindAt } from '../fs/writes';
import { sizeMismatch } from '../fs/copy';
import { apiKeyPrincipal } from '../auth/api-keys';
import { copyObject, type CopyCheckpoint } from './copy-object';
import type { JobEvents } from './events';
import { ItemWrites, type ItemChanges } from './item-writes';
import { listedKinds } from './placement';
import { countItems, findJobRow, type JobItemRow, type JobRow, type StoredMessage } from './records';
import { emitEvent } from '../events/bus';
import { jobObject } from '../events/objects';
import { log } from '../../observability/log';

/**
 * Files of one job copied at once: small files cost a round trip or two each, so enough are in flight to keep the
 * storages busy; a large one holds PARTS_AT_ONCE streamed parts, so the memory held stays a few MiB per file.
 */
const FILES_AT_ONCE = 8;
/** Files whose names are decided together: one reservation statement per slice and one listing per target folder. */
const PLACE_BATCH = 2000;
/** Item outcomes written in one transaction (and at every progress write). */
const OUTCOME_BATCH = 200;
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

  /** Jobs this instance is running now. */
  get running(): number {
    return this.runs.size;
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
    emitEvent(this.deps, 'job.finished', jobObject(row, status, at));
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
  private readonly outcomes: ItemWrites;
  /** Each file's folder, resolved once per run (a mount and its storage config are read from the database). */
  private readonly folders = new Map<string, Promise<MountTarget>>();
  private flushing: Promise<void> = Promise.resolve();
  private finished: Promise<StopReason | undefined> | undefined;

  constructor(
    private readonly deps: AppDeps,
    private readonly events: JobEvents,
    private readonly instance: string,
    private readonly leaseMs: number,
    private readonly row: JobRow,
    private readonly caller: FsCaller,
  ) {
    this.outcomes = new ItemWrites(deps, row.id, OUTCOME_BATCH);
  }

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
      await forEachAtOnce(
        items.filter((item) => item.kind === 'folder'),
        1,
        (item) => this.item(item, () => this.work(item)),
      );
      await this.files(items.filter((item) => item.kind === 'file'));
      await forEachAtOnce(
        items.filter((item) => item.kind === 'delete'),
        1,
        (item) => this.item(item, () => this.work(item)),
      );
      if (this.row.type === 'move' && !this.stopReason) await this.pruneMovedFolders();
    } finally {
      clearInterval(timer);
      await this.flushing;
    }
    await this.outcomes.flush();
    await this.invalidateTouched();
    await this.finish();
    return this.stopReason;
  }

  /**
   * Runs one item; its outcome joins the next batch of outcomes written. The item stays `pending` in the record
   * while it runs: cut short by a pause, a cancel, a stop or a crash, it goes on later from its checkpoint.
   */
  private async item(item: JobItemRow, work: () => Promise<{ outcome: 'done' | 'skipped'; release?: MountTarget }>) {
    if (this.controller.signal.aborted) return;
    this.current = item.source_path ?? item.target_path;
    try {
      const { outcome, release } = await work();
      this.outcomes.add(item.seq, { status: outcome, checkpoint: null }, release);
    } catch (error) {
      if (this.controller.signal.aborted) return;
      this.outcomes.add(item.seq, { status: 'failed', ...this.failure(item, error), checkpoint: null });
    } finally {
      this.inFlight.delete(item.seq);
    }
  }

  /** Why an item failed, as its record keeps it (the message's key and parameters, translated when read). */
  private failure(item: JobItemRow, error: unknown): { reason: string; reason_message: string } {
    const apiError = storageError(item.source_path ?? item.target_path, error);
    if (!(apiError instanceof ApiError)) throw apiError;
    if (apiError.status >= 500 && apiError.messageKey === 'internal') log.error({ err: error }, `Job ${item.job_id} item ${item.seq} failed`);
    const message: StoredMessage = { key: apiError.messageKey, params: apiError.params };
    return { reason: batchErrorOf(apiError), reason_message: JSON.stringify(message) };
  }

  /** The files: their names decided a batch at a time (placeFiles), then copied FILES_AT_ONCE at a time. */
  private async files(files: JobItemRow[]) {
    const placements = new Map<number, Placement>();
    for (let start = 0; start < files.length && !this.controller.signal.aborted; start += PLACE_BATCH) {
      await this.placeFiles(files.slice(start, start + PLACE_BATCH), placements);
    }
    await forEachAtOnce(files, FILES_AT_ONCE, async (item) => {
      const placement = placements.get(item.seq);
      if (placement) await this.item(item, () => this.copyFile(item, placement));
    });
  }

  /**
   * Decides where each file goes under the job's conflict rule, with one listing per target folder (placeMany):
   * a name found taken is skipped, replaced, renamed or failed here. A file placed by an earlier run keeps its name.
   * The names chosen are recorded in one transaction, before any is written.
   */
  private async placeFiles(files: JobItemRow[], placements: Map<number, Placement>) {
    const resolved: { item: JobItemRow; target: MountTarget }[] = [];
    for (const item of files) {
      try {
        const target = await this.resolveFile(item.target_path);
        if (item.placed) placements.set(item.seq, { outcome: 'created', target, reserved: true });
        else resolved.push({ item, target });
      } catch (error) {
        this.outcomes.add(item.seq, { status: 'failed', ...this.failure(item, error) });
      }
    }
    const placed = await placeMany(this.deps, resolved.map(({ target }) => target), this.row.on_conflict, UPLOAD_HOLD_MS, listedKinds).catch((error: unknown) =>
      resolved.map(() => (error instanceof Error ? error : new Error(String(error)))),
    );
    await this.db.transaction().execute(async (trx) => {
      for (const [index, { item }] of resolved.entries()) {
        const placement = placed[index] as Placement | Error;
        const changes: ItemChanges =
          placement instanceof Error
            ? { status: 'failed', ...this.failure(item, placement) }
            : placement.outcome === 'skipped'
              ? { status: 'skipped' }
              : // Resumed after a stop, the item writes to the name chosen now.
                { target_path: placement.target.path.text, placed: 1 };
        await trx.updateTable('job_items').set(changes).where('job_id', '=', item.job_id).where('seq', '=', item.seq).execute();
        if (!(placement instanceof Error) && placement.outcome !== 'skipped') placements.set(item.seq, placement);
      }
    });
  }

  private setItem(item: JobItemRow, changes: Partial<Omit<JobItemRow, 'job_id' | 'seq'>>) {
    return this.db.updateTable('job_items').set(changes).where('job_id', '=', item.job_id).where('seq', '=', item.seq).execute();
  }

  private resolve(path: string) {
    return resolveInMount(this.deps, this.caller, normalizePath(path));
  }

  /** A file's target, its folder resolved once per run (inside the caller's base path, as the folder is). */
  private async resolveFile(path: string): Promise<MountTarget> {
    const file = normalizePath(path);
    const folderPath = parentOf(file);
    let folder = this.folders.get(folderPath.text);
    if (!folder) {
      folder = resolveInMount(this.deps, this.caller, folderPath);
      this.folders.set(folderPath.text, folder);
    }
    const parent = await folder;
    return withInner(parent, [...parent.inner, nameOf(file)]);
  }

  private touch(target: MountTarget) {
    const folders = this.touched.get(target.mount.id) ?? new Set<string>();
    folders.add(target.inner.join('/'));
    this.touched.set(target.mount.id, folders);
  }

  /** A folder made or a mirror's file deleted. */
  private async work(item: JobItemRow): Promise<{ outcome: 'done' }> {
    if (item.kind === 'folder') {
      const folder = await this.resolve(item.target_path);
      if (folder.inner.length > 0) await onStorage(folder.path.text, () => folder.driver.makeFolder(folder.key));
      this.touch(folder);
      return { outcome: 'done' };
    }
    const gone = await this.resolve(item.target_path);
    await onStorage(gone.path.text, async () => {
      await gone.driver.delete(gone.key);
      await keepParent(gone);
    });
    this.touch(gone);
    return { outcome: 'done' };
  }

  /**
   * One placed file copied (or moved) to its target, checked, its source deleted for a move; the name it held is
   * given back with its outcome. A copy takes the size from the plan's listing (a source of another size fails the
   * copy) and the stored size from the write: no look before or after. A move looks at both, to compare ETags
   * before it deletes.
   */
  private async copyFile(item: JobItemRow, placement: Placement): Promise<{ outcome: 'done'; release?: MountTarget }> {
    const from = await this.resolveFile(item.source_path as string);
    const to = placement.target;
    const release = placement.reserved ? to : undefined;
    try {
      const object = this.row.type === 'move' ? await onStorage(from.path.text, () => from.driver.stat(from.key)) : { size: item.size ?? 0, etag: null };
      if (!object) throw new ApiError(404, 'fs_not_found', { path: from.path.text });
      if (this.row.type === 'move' && from.driver === to.driver) {
        await onStorage(from.path.text, () => from.driver.move(from.key, to.key));
        this.inFlight.set(item.seq, object.size);
      } else {
        // A source of another size than the plan listed fails as a copy that does not match (retry-failed copies it anew).
        const stored = await onStorage(to.path.text, () =>
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
          ).catch((error: unknown) => {
            throw error instanceof SourceChangedError ? sizeMismatch() : error;
          }),
        );
        if (stored.size !== object.size) throw sizeMismatch();
        if (this.row.type === 'move') {
          // The source goes only once its copy is verified (fs/move.ts's rule).
          const written = await onStorage(to.path.text, () => to.driver.stat(to.key));
          if (!written) throw new ApiError(404, 'fs_not_found', { path: to.path.text });
          assertSameFile(object as ListedObject, written);
          await onStorage(from.path.text, () => from.driver.delete(from.key));
        }
      }
      if (this.row.type === 'move') {
        await onStorage(from.path.text, () => keepParent(from));
        this.touch(from);
      }
      this.touch(to);
      return { outcome: 'done', release };
    } catch (error) {
      // A name this run reserved is kept while the item may go on (a pause or a stop); otherwise given back.
      if (!this.controller.signal.aborted && release) await releaseName(this.deps, release);
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
    this.flushing = this.flushing.then(() => this.writeProgress()).catch((error: unknown) => log.error({ err: error }, `Job ${this.row.id}: its progress could not be written`));
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
    await this.outcomes.flush();
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
    const written = await this.db
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
      .executeTakeFirst();
    // Only the run that still held the job announces its end (one that lost it to another instance writes nothing).
    if (status && Number(written.numUpdatedRows) > 0) emitEvent(this.deps, 'job.finished', jobObject(this.row, status, now));
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
      log.error({ err: error }, `Job ${jobId}: cleaning up item ${item.seq} failed`);
    }
  }
}

export { principalOf };
