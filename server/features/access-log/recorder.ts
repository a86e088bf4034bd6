import type { AccessKind } from '../../../contract/access-log';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { ShareAccessLogTable } from '../../db/schema';
import { readSettings } from '../settings/settings';
import { loggedAddress } from './addresses';
import { BatchedWrites } from '../../db/batched-writes';

/** How often recorded accesses reach the database. */
export const ACCESS_FLUSH_MS = 1000;

/** Rows per INSERT: 9 values each stays far below both databases' limits on bound parameters. */
const ROWS_PER_INSERT = 500;

/** Longer user agents are cut: the log is for telling visitors apart, not for keeping what a client sends. */
const USER_AGENT_CHARS = 512;

/** Who made a request, as the HTTP side found them (`clientAddress`, the User-Agent header). */
export interface Visitor {
  address: string;
  userAgent: string;
}

export interface Access {
  share: { table: 'pastes' | 'files'; id: string };
  visitor: Visitor;
  kind: AccessKind;
  bytes: number;
  completed: boolean;
  at: Date;
}

/** What identical accesses of one second have in common: all but their bytes, `address` as it is compared. */
const sameAccessKey = (access: Access, address: string) =>
  `${access.share.table}\n${access.share.id}\n${access.kind}\n${access.completed}\n${Math.floor(access.at.getTime() / 1000)}\n${address}\n${access.visitor.userAgent}`;

/** Identical accesses of one second, counted together: the first one's visitor and time, their count and bytes. */
interface CountedAccess extends Access {
  count: number;
}

/**
 * Accesses of shares, kept in memory and written in one transaction about once a second (at shutdown, and before a
 * log is read), as view counts are: identical accesses of one second are counted into one held item, which becomes
 * one row. Addresses are cut to their network when written, under the setting of that moment (rowsOf). A crash
 * loses at most the last second; an access of a share deleted before its row is written is dropped with it.
 */
export class AccessRecorder {
  private readonly writes: BatchedWrites<CountedAccess>;

  constructor(deps: Pick<AppDeps, 'db'>, everyMs = ACCESS_FLUSH_MS) {
    this.writes = new BatchedWrites((batch) => writeAccesses(deps.db, batch), 'Share accesses could not be written', everyMs);
  }

  record(access: Access): void {
    const counted = this.writes.keyed(sameAccessKey(access, access.visitor.address), () => ({ ...access, bytes: 0, count: 0 }));
    counted.count++;
    counted.bytes += access.bytes;
  }

  /** Writes what is pending; concurrent calls wait for the same write. */
  flush(): Promise<void> {
    return this.writes.flush();
  }
}

async function writeAccesses(db: DB, batch: CountedAccess[]): Promise<void> {
  const { access_log_full_ip: full } = await readSettings(db);
  await db.transaction().execute(async (trx) => {
    const living = new Set<string>();
    for (const table of ['pastes', 'files'] as const) {
      const ids = [...new Set(batch.filter((access) => access.share.table === table).map((access) => access.share.id))];
      if (ids.length === 0) continue;
      const found = await trx.selectFrom(table).select('id').where('id', 'in', ids).execute();
      for (const { id } of found) living.add(`${table}:${id}`);
    }
    const rows = rowsOf(
      batch.filter((access) => living.has(`${access.share.table}:${access.share.id}`)),
      full,
    );
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      await trx.insertInto('share_access_log').values(rows.slice(start, start + ROWS_PER_INSERT)).execute();
    }
  });
}

type AccessRow = Omit<ShareAccessLogTable, 'id'>;

/**
 * The rows of a batch: accesses counted together (AccessRecorder.record) whose addresses cut alike become one row,
 * their counts and bytes summed, at the first one's time. A client reading a share in a loop costs the database a
 * row a second, not a row a read.
 */
function rowsOf(batch: CountedAccess[], fullAddress: boolean): AccessRow[] {
  const rows = new Map<string, AccessRow>();
  for (const access of batch) {
    const ip = loggedAddress(access.visitor.address, fullAddress);
    const key = sameAccessKey(access, ip);
    const row = rows.get(key);
    if (row) {
      row.count += access.count;
      row.bytes += access.bytes;
      continue;
    }
    rows.set(key, {
      paste_id: access.share.table === 'pastes' ? access.share.id : null,
      file_id: access.share.table === 'files' ? access.share.id : null,
      at: access.at.toISOString(),
      ip,
      user_agent: access.visitor.userAgent.slice(0, USER_AGENT_CHARS),
      kind: access.kind,
      bytes: access.bytes,
      completed: access.completed ? 1 : 0,
      count: access.count,
    });
  }
  return [...rows.values()];
}

/** A `HEAD` at a share by someone other than its owner: headers told, nothing spent, nothing sent. */
export function recordPeek(deps: Pick<AppDeps, 'db' | 'now'>, share: Access['share'], visitor: Visitor): void {
  accessRecorderOf(deps).record({ share, visitor, kind: 'peek', bytes: 0, completed: true, at: deps.now() });
}

const recorders = new WeakMap<object, AccessRecorder>();

/** The app's access recorder (one per app, so each test app has its own). */
export function accessRecorderOf(deps: Pick<AppDeps, 'db'>): AccessRecorder {
  let recorder = recorders.get(deps);
  if (!recorder) {
    recorder = new AccessRecorder(deps);
    recorders.set(deps, recorder);
  }
  return recorder;
}
