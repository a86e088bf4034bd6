import { FINISHED_KEPT_MS, type LiveTransfer } from '../../../contract/jobs';
import { PRESIGN_TTL_SECONDS } from '../../../contract/files';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { LiveTransfersTable } from '../../db/schema';

/**
 * The `live_transfers` table: what each instance writes of its transfers, and what the admin reads of all of them.
 */

export function toRow(transfer: LiveTransfer): LiveTransfersTable {
  return {
    id: transfer.id,
    kind: transfer.kind,
    direction: transfer.direction,
    who_kind: transfer.who.kind,
    who_name: transfer.who.name,
    who_id: transfer.who.id ?? null,
    name: transfer.name,
    bytes_done: transfer.bytesDone,
    bytes_total: transfer.bytesTotal,
    speed: transfer.speed === null ? null : Math.round(transfer.speed),
    parts_in_flight: transfer.partsInFlight,
    outcome: transfer.outcome,
    instance: transfer.instance,
    started_at: transfer.startedAt,
    updated_at: transfer.updatedAt,
    finished_at: transfer.finishedAt,
  };
}

export function fromRow(row: LiveTransfersTable): LiveTransfer {
  return {
    id: row.id,
    kind: row.kind,
    direction: row.direction,
    who: { kind: row.who_kind, name: row.who_name, ...(row.who_id !== null && { id: row.who_id }) },
    name: row.name,
    bytesDone: Number(row.bytes_done),
    bytesTotal: row.bytes_total === null ? null : Number(row.bytes_total),
    speed: row.speed === null ? null : Number(row.speed),
    partsInFlight: row.parts_in_flight,
    outcome: row.outcome,
    instance: row.instance,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/** Writes the transfers' current state, each row replaced whole. */
export async function writeTransfers(db: DB, transfers: LiveTransfer[]): Promise<void> {
  for (const transfer of transfers) {
    const row = toRow(transfer);
    const { id: _id, started_at: _started, ...changes } = row;
    await db.insertInto('live_transfers').values(row).onConflict((c) => c.column('id').doUpdateSet(changes)).execute();
  }
}

export async function readTransfer(db: DB, id: string): Promise<LiveTransfer | undefined> {
  const row = await db.selectFrom('live_transfers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

/** Running transfers and those finished within `FINISHED_KEPT_MS`, newest first. */
export async function listTransfers(deps: Pick<AppDeps, 'db' | 'now'>): Promise<LiveTransfer[]> {
  const since = new Date(deps.now().getTime() - FINISHED_KEPT_MS).toISOString();
  const rows = await deps.db
    .selectFrom('live_transfers')
    .selectAll()
    .where((eb) => eb.or([eb('outcome', '=', 'running'), eb('finished_at', '>=', since)]))
    .orderBy('started_at', 'desc')
    .execute();
  return rows.map(fromRow);
}

/** Transfers running now, on every instance. */
export async function countRunning(db: DB): Promise<number> {
  const row = await db.selectFrom('live_transfers').select((eb) => eb.fn.countAll<number>().as('count')).where('outcome', '=', 'running').executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Rows another instance wrote at or after `since`: what a watcher of this instance has not seen go by. */
export async function othersSince(db: DB, instance: string, since: string): Promise<LiveTransfer[]> {
  const rows = await db.selectFrom('live_transfers').selectAll().where('instance', '<>', instance).where('updated_at', '>=', since).execute();
  return rows.map(fromRow);
}

/**
 * A running transfer unheard of for a presigned URL's lifetime belongs to an instance that died or an upload given
 * up (its pending record goes the same way, upload-sweeper.ts).
 */
export const STALE_RUNNING_MS = PRESIGN_TTL_SECONDS * 1000;

/** The leader's sweep: finished transfers older than a day go; running ones nobody updates end as failed. */
export async function sweepTransfers(deps: Pick<AppDeps, 'db' | 'now'>): Promise<void> {
  const now = deps.now();
  const kept = new Date(now.getTime() - FINISHED_KEPT_MS).toISOString();
  await deps.db.deleteFrom('live_transfers').where('outcome', '<>', 'running').where('finished_at', '<', kept).execute();
  const stale = new Date(now.getTime() - STALE_RUNNING_MS).toISOString();
  await deps.db
    .updateTable('live_transfers')
    .set({ outcome: 'failed', speed: null, parts_in_flight: null, finished_at: now.toISOString(), updated_at: now.toISOString() })
    .where('outcome', '=', 'running')
    .where('updated_at', '<', stale)
    .execute();
}
