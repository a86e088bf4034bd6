import { FS_EXISTS_MAX_PATHS, FS_HASH_MAX_BYTES, type FsConflictPolicy, type FsExists, type FsExistingEntry } from '../../contract/fs';
import { isConflictError, policyFor, type ApiAccess, type ConflictResolution, type FsConflict, type FsItemsResult } from '../../contract/transfer';
import { callApi } from '../transport/api';
import type { Transport } from '../transport/http';
import { fsBase } from './multipart-protocol';

/** A file about to be written: how the task names it, where it goes, and its bytes. */
export interface PlannedWrite {
  path: string;
  targetPath: string;
  file: Blob;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** Same size, and the same SHA-256 where the server could give the stored file's (small LOCAL files). */
async function isIdentical(write: PlannedWrite, existing: FsExistingEntry): Promise<boolean> {
  if (existing.kind !== 'file' || existing.size !== write.file.size) return false;
  if (!existing.sha256 || write.file.size > FS_HASH_MAX_BYTES) return true;
  return hex(await crypto.subtle.digest('SHA-256', await write.file.arrayBuffer())) === existing.sha256;
}

/**
 * The planned writes whose target is taken, asked of the server (`/fs/exists`, FS_EXISTS_MAX_PATHS at a time)
 * before any byte is sent, so that a folder uploaded again asks once instead of writing over what is there.
 */
export async function findConflicts(transport: Transport, api: ApiAccess, writes: PlannedWrite[], signal: AbortSignal): Promise<FsConflict[]> {
  const conflicts: FsConflict[] = [];
  for (let start = 0; start < writes.length; start += FS_EXISTS_MAX_PATHS) {
    const slice = writes.slice(start, start + FS_EXISTS_MAX_PATHS);
    const answer = await callApi<FsExists>(transport, api, `${fsBase(api)}/exists`, {
      method: 'POST',
      body: { paths: slice.map((write) => write.targetPath), hashes: true },
      signal,
      failure: 'unknown',
    });
    const existing = new Map(answer.existing.map((entry) => [entry.path.replace(/\/$/, ''), entry]));
    for (const write of slice) {
      const entry = existing.get(write.targetPath);
      if (!entry) continue;
      conflicts.push({ path: write.path, targetPath: write.targetPath, identical: await isIdentical(write, entry), existingSize: entry.size, newSize: write.file.size });
    }
  }
  return conflicts;
}

/**
 * The `onConflict` of each item of a run: what the user chose for the conflicts it met before, and `fail` for the
 * rest, so that a name taken since is asked about too rather than written over.
 */
export function conflictPolicies(resolution: ConflictResolution | undefined): (path: string) => FsConflictPolicy {
  if (!resolution) return () => 'fail';
  const known = new Map(resolution.conflicts.map((conflict) => [conflict.path, conflict]));
  return (path) => {
    const conflict = known.get(path);
    return conflict ? policyFor(resolution.decision, conflict) : 'fail';
  };
}

/**
 * Moves the items a run failed on because their name was taken from `failed` to `conflicts` (what the user decides
 * on), keeping the item's target where the caller knows it.
 */
export function failuresToConflicts(result: FsItemsResult, targetOf: (path: string) => string = (path) => path): void {
  const conflicts = result.failed.filter(({ error }) => isConflictError(error));
  if (conflicts.length === 0) return;
  result.failed = result.failed.filter(({ error }) => !isConflictError(error));
  result.conflicts = [...(result.conflicts ?? []), ...conflicts.map(({ path }) => ({ path, targetPath: targetOf(path), identical: false }))];
}

/** Records what a done item's write was, beside its place in `succeeded` or `skipped`. */
export function recordOutcome(result: FsItemsResult, path: string, outcome: string | undefined): void {
  if (outcome === 'skipped') result.skipped.push(path);
  else result.succeeded.push(path);
  if (outcome === 'replaced') (result.replaced ??= []).push(path);
  if (outcome === 'renamed') (result.renamed ??= []).push(path);
}
