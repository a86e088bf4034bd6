import { sql } from 'kysely';
import type { AppDeps } from '../../context';
import { skipLocked } from '../../db/dialect';
import { INSTANCE_ID } from '../../db/leases';
import { hasIndex, queueDueRescans, queueFolders, queueMissingBuilds, ROOT_FOLDER } from './index-records';
import { readFolder, type PendingFolder } from './read-folder';

/** How long a reader holds a queued folder: one whose reader died is read by another once this has passed. */
const CLAIM_MS = 2 * 60_000;
/** How often the background loop looks for due rescans and claims that lapsed. */
const TICK_MS = 30_000;
/** How long a search waits for the folders that writes queued (its answer may then miss the latest of them). */
const SETTLE_WAIT_MS = 2_000;
const SETTLE_POLL_MS = 20;

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

  constructor(
    private readonly deps: AppDeps,
    readonly holder: string = INSTANCE_ID,
  ) {}

  /** The background work of a server process: builds for mounts without an index, due rescans, the queue. */
  async start(tickMs = TICK_MS): Promise<void> {
    await queueMissingBuilds(this.deps);
    this.kick();
    this.timer = setInterval(() => {
      queueDueRescans(this.deps)
        .then(() => this.kick())
        .catch((error: unknown) => console.error('Queueing index rescans failed:', error));
    }, tickMs);
    this.timer.unref();
  }

  /** Stops the loop and waits for the folder being read; what is left stays queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
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
      .then(() => undefined)
      .catch((error: unknown) => console.error('Indexing mounts failed:', error))
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

  private async read(row: PendingFolder) {
    try {
      await readFolder(this.deps, row);
    } catch (error) {
      // Left claimed: read again once the claim lapses. No path or storage message goes to the log.
      console.error(`Indexing a folder of mount ${row.mount_id} failed (${error instanceof Error ? error.name : 'error'}); it is tried again later`);
    }
  }

  /** Claims the next folder: shallow rows first (a write waits on them), then in the order they were queued. */
  async claim(filter: ClaimFilter = {}): Promise<PendingFolder | undefined> {
    const now = this.deps.now();
    const until = new Date(now.getTime() + CLAIM_MS).toISOString();
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
