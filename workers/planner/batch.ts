import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { BatchFile } from '../../contract/transfer';

/** How small files are grouped: one request carries at most this many files and bytes. */
export interface GroupLimits {
  files: number;
  bytes: number;
}

/**
 * 64 files or 4 MiB a request: per-request costs (a round trip, the form's parsing, the answer) are then a small share
 * of a group of 1–4 KB files, while a group of larger files is still acknowledged every second or so on a slow line.
 * The server takes up to FS_UPLOAD_GROUP_MAX_FILES.
 */
export const GROUP_LIMITS: GroupLimits = { files: 64, bytes: 4 * 1024 * 1024 };

/** What one request of a batch sends: several small files, or one large file (in parts). */
export type BatchUnit = { kind: 'group'; files: BatchFile[]; bytes: number } | { kind: 'large'; file: BatchFile };

/**
 * The requests of a batch, in the files' own order, leaving out those already acknowledged (`done`, by relative
 * path): files over the multipart threshold alone, the others gathered into groups up to `limits`.
 */
export function planBatch(files: readonly BatchFile[], done: ReadonlySet<string>, limits: GroupLimits = GROUP_LIMITS): BatchUnit[] {
  const units: BatchUnit[] = [];
  let group: BatchFile[] = [];
  let bytes = 0;
  const close = () => {
    if (group.length > 0) units.push({ kind: 'group', files: group, bytes });
    group = [];
    bytes = 0;
  };
  for (const entry of files) {
    if (done.has(entry.relativePath)) continue;
    const size = entry.file.size;
    if (size > MULTIPART_THRESHOLD) {
      units.push({ kind: 'large', file: entry });
      continue;
    }
    if (group.length >= limits.files || (group.length > 0 && bytes + size > limits.bytes)) close();
    group.push(entry);
    bytes += size;
  }
  close();
  return units;
}

/** Bytes of a unit, for progress. */
export const unitBytes = (unit: BatchUnit): number => (unit.kind === 'group' ? unit.bytes : unit.file.file.size);
