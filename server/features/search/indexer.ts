import { sql } from 'kysely';
import type { AppDeps } from '../../context';
import { dialectOf, skipLocked } from '../../db/dialect';
import { INSTANCE_ID } from '../../db/leases';
import { hasIndex, queueDueRescans, queueFolders, queueMissingBuilds, releaseClaims, ROOT_FOLDER } from './index-records';
import { readFolder, type PendingFolder } from './read-folder';
import { log } from '../../observability/log';

/** How long a folder whose reading failed waits before it is tried again. */
const RETRY_MS = 2 * 60_000;
/** How often the background loop queues due rescans and reads the queue again. */
const TICK_MS = 30_000;
/** How long a search waits for the folders that writes queued (its answer may then miss the latest of them). */
const SETTLE_WAIT_MS = 2_000;
const SETTLE_POLL_MS = 20;
/** A look at a lapsed claim comes this long after it lapsed (timers fire early by a millisecond or so). */
const WAKE_MARGIN_MS = 100;

interface ClaimFilter {
  mountIds?: string[];
  /** Only rows that writes queued, not those of a build or rescan walking the whole mount. */
  shallowOnly?: boolean;
}

/**
 * Reads the queue of folders (fs_index_pending) into the mounts' indexes. The queue is in the database, so a build
 * killed halfway goes on from where it was on the next start or on another instance; a row is claimed by one
 * statement (the oldest unclaimed, or one whose claim lapsed), so two readers never take the same folder.
 */
export class Indexer {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: AppDeps,
    readonly holder: string = INSTANCE_ID,
  ) {}

  /** The background work of a server process: builds for mounts without an index, due rescans, the queue. */
  async start(tickMs = TICK_MS): Promise<void> {
    // SQLite has one server process: a claim in its queue is a killed predecessor's, so its folder is read again
    // now rather than once the claim lapses (the build stayed `building` meanwhile).
    if (dialectOf(this.deps.db) === 'sqlite') await releaseClaims(this.deps.db);
    await queueMissingBuilds(this.deps);
    this.kick();
    this.timer = setInterval(() => {
      queueDueRescans(this.deps)
        .then(() => this.kick())
        .catch((error: unknown) => log.error({ err: error }, 'Queueing index rescans failed'));
    }, tickMs);
    this.timer.unref();
  }

  /** Stops the loop and waits for the folder being read; what is left stays queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.wake);
    await this.running;
  }

  /** Reads the queue in the background until it is empty (one loop per process; a kick while it runs goes round again). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => this.wakeWhenAClaimLapses())
      .catch((error: unknown) => log.error({ err: error }, 'Indexing mounts failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Reads queued folders until none is left to claim (or `limit` were read); answers how many were read. */
  async drain(limit = Infinity, filter: ClaimFilter = {}): Promise<number> {
    let read = 0;
    while (!this.stopped && read < limit) {
      const row = await this.claim(filter);
      if (!row) break;
      await this.read(row);
      read++;
    }
    return read;
  }

  /**
   * Before a search: reads the folders that writes queued in these mounts, and waits (a bounded time) for those
   * another reader holds, so that what was written or deleted a moment ago is in the answer.
   */
  async settle(mountIds: string[], waitMs = SETTLE_WAIT_MS): Promise<void> {
    if (mountIds.length === 0) return;
    const deadline = Date.now() + waitMs;
    const filter = { mountIds, shallowOnly: true };
    while (!this.stopped && Date.now() < deadline) {
      if ((await this.drain(Infinity, filter)) > 0) continue;
      const left = await this.deps.db
        .selectFrom('fs_index_pending')
        .select('folder')
        .where('mount_id', 'in', mountIds)
        .where('deep', '=', 0)
        .limit(1)
        .executeTakeFirst();
      if (!left) return;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /**
   * How long a claim lasts unrenewed: the server jobs' lease (`JOB_LEASE_SECONDS`), so that the folder a dead
   * instance held is read by another as soon as its job would be taken over.
   */
  private get claimMs(): number {
    return this.deps.config.jobLeaseSeconds * 1000;
  }

  private async read(row: PendingFolder) {
    // Renewed while the folder is read (listing a big remote folder takes a while): it lapses only when we died.
    const renewal = setInterval(() => void this.holdFor(row, this.claimMs).catch(() => undefined), this.claimMs / 3);
    const read = await readFolder(this.deps, row).then(
      () => true,
      (error: unknown) => {
        // No path or storage message goes to the log.
        log.error(`Indexing a folder of mount ${row.mount_id} failed (${error instanceof Error ? error.name : 'error'}); it is tried again later`);
        return false;
      },
    );
    clearInterval(renewal);
    // Left claimed, for longer: read again once that lapses, by whichever reader asks then.
    if (!read) await this.holdFor(row, RETRY_MS).catch(() => undefined);
  }

  /** Holds a claimed folder `ms` from now, unless it was queued again meanwhile (which let go of our claim). */
  private async holdFor(row: PendingFolder, ms: number) {
    await this.deps.db
      .updateTable('fs_index_pending')
      .set({ held_until: new Date(this.deps.now().getTime() + ms).toISOString() })
      .where('mount_id', '=', row.mount_id)
      .where('folder', '=', row.folder)
      .where('holder', '=', this.holder)
      .execute();
  }

  /**
   * With the queue drained but for folders someone holds: looks again when the first claim lapses, as its reader
   * may have died (a live one renews it, and the next look is put off until that lapses).
   */
  private async wakeWhenAClaimLapses() {
    const next = await this.deps.db
      .selectFrom('fs_index_pending')
      .select((eb) => eb.fn.min('held_until').as('at'))
      .executeTakeFirst();
    clearTimeout(this.wake);
    if (!next?.at || this.stopped) return;
    this.wake = setTimeout(() => this.kick(), Math.max(0, Date.parse(next.at) - this.deps.now().getTime()) + WAKE_MARGIN_MS);
    this.wake.unref();
  }

  /** Claims the next folder: shallow rows first (a write waits on them), then in the order they were queued. */
  async claim(filter: ClaimFilter = {}): Promise<PendingFolder | undefined> {
    const now = this.deps.now();
    const until = new Date(now.getTime() + this.claimMs).toISOString();
    const free = sql`(held_until is null or held_until <= ${now.toISOString()})`;
    const inMounts = filter.mountIds ? sql`and mount_id in (${sql.join(filter.mountIds)})` : sql``;
    const shallow = filter.shallowOnly ? sql`and deep = 0` : sql``;
    const claimed = await sql<PendingFolder>`
      update fs_index_pending set holder = ${this.holder}, held_until = ${until}
      where ${free} and (mount_id, folder) = (
        select mount_id, folder from fs_index_pending
        where ${free} ${inMounts} ${shallow}
        order by deep, queued_at, folder limit 1 ${skipLocked(this.deps.db)})
      returning mount_id, folder, deep, generation`.execute(this.deps.db);
    return claimed.rows[0];
  }
}

const indexers = new WeakMap<AppDeps, Indexer>();

/** The indexer of an app (one per process and database). */
export function indexerOf(deps: AppDeps): Indexer {
  let indexer = indexers.get(deps);
  if (!indexer) {
    indexer = new Indexer(deps);
    indexers.set(deps, indexer);
  }
  return indexer;
}

const parentOf = (path: string) => path.split('/').slice(0, -1).join('/');

/** A path's folders, nearest first, up to the mount's root. */
function ancestorsOf(path: string): string[] {
  const folders: string[] = [];
  for (let folder = path; folder !== ROOT_FOLDER; ) {
    folder = parentOf(folder);
    folders.push(folder);
  }
  return folders;
}

/**
 * The freshness hook (server/features/fs/shared-directory-cache.ts calls it after every write through Clipstash):
 * `paths` are what the writes changed, files or folders inside the mount. The path itself is queued shallow when the
 * index knows it as a folder, and so are its folders up to the nearest one the index knows (a write may have made
 * the ones between); reading them brings new subfolders in and drops what went.
 */
export async function indexWrites(deps: AppDeps, mountId: string, paths: Iterable<string>): Promise<void> {
  if (!(await hasIndex(deps.db, mountId))) return;
  const changed = [...new Set(paths)];
  const candidates = [...new Set(changed.flatMap((path) => [path, ...ancestorsOf(path)]))].filter((path) => path !== ROOT_FOLDER);
  const knownFolders = new Set<string>();
  for (let start = 0; start < candidates.length; start += 200) {
    const rows = await deps.db
      .selectFrom('fs_index_entries')
      .select('path')
      .where('mount_id', '=', mountId)
      .where('is_dir', '=', 1)
      .where('path', 'in', candidates.slice(start, start + 200))
      .execute();
    for (const row of rows) knownFolders.add(row.path);
  }
  const known = (folder: string) => folder === ROOT_FOLDER || knownFolders.has(folder);
  const folders = new Set<string>();
  for (const path of changed) {
    if (known(path)) folders.add(path);
    for (const folder of ancestorsOf(path)) {
      folders.add(folder);
      if (known(folder)) break;
    }
  }
  await queueFolders(deps.db, mountId, folders, false, deps.now());
  indexerOf(deps).kick();
}
