import { PRESIGN_TTL_SECONDS } from '../../contract/files';
import type { AppDeps } from '../context';
import { removeFiles } from './file-shares/management';
import { sweepStaleRequestUploads } from './file-requests/requests';
import { holdLease } from '../db/leases';
import { sweepExpiredNames } from './fs/name-reservations';
import { sweepStagedRemoteUploads } from './storages/remote-staging';
import { moveSharesIntoArea } from './storages/share-area';
import { sweepTransfers } from './transfers/records';
import { sweepAccessLog } from './access-log/records';
import { log } from '../observability/log';

/**
 * Removes abandoned pending uploads (see isStale in file-uploads.ts) with whatever reached storage: the object of a single PUT, the
 * upload and all its parts of a multipart one. A storage that cannot be cleaned keeps the record for the next
 * sweep.
 */
export async function sweepStaleUploads(deps: AppDeps): Promise<{ removed: number; failed: number }> {
  const cutoff = new Date(deps.now().getTime() - PRESIGN_TTL_SECONDS * 1000).toISOString();
  const stale = await deps.db
    .selectFrom('files')
    .selectAll()
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb.and([eb('upload_id', 'is', null), eb('created_at', '<=', cutoff)]),
        eb.and([eb('upload_id', 'is not', null), eb('updated_at', '<=', cutoff)]),
      ]),
    )
    .execute();
  return removeFiles(deps, stale);
}

const SWEEP_EVERY_MS = 5 * 60_000;
export const UPLOAD_SWEEP_LEASE = 'upload-sweeper';

/**
 * Sweeps when this instance holds the sweep lease (taking it when free or expired), so that of several instances on
 * one database one at a time sweeps; the holder renews it each time, another takes over when it stops.
 */
export async function sweepAsLeader(deps: AppDeps, everyMs = SWEEP_EVERY_MS) {
  if (!(await holdLease(deps.db, UPLOAD_SWEEP_LEASE, deps.now(), 2 * everyMs))) return undefined;
  const swept = await sweepStaleUploads(deps);
  await sweepStaleRequestUploads(deps);
  // Parts of WebDAV, SFTP and FTP uploads that no record follows any more (a process that died mid-upload).
  await sweepStagedRemoteUploads(deps);
  await sweepExpiredNames(deps);
  // Finished transfers leave the admin's task manager after a day; those of an instance that died end as failed.
  await sweepTransfers(deps);
  // Shares' accesses older than the retention setting.
  await sweepAccessLog(deps);
  // Shares stored before the share area existed (or committed since by an upload begun before) move into it.
  await moveSharesIntoArea(deps);
  return swept;
}

/** Runs the sweep every few minutes; returns the stop function. */
export function startUploadSweeper(deps: AppDeps, everyMs = SWEEP_EVERY_MS): () => void {
  const timer = setInterval(() => {
    sweepAsLeader(deps, everyMs).catch((error: unknown) => log.error({ err: error }, 'Sweeping stale uploads failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
