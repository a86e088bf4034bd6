import type { BatchFile, BatchFileIdentity, JournalTask } from '../../contract/transfer';
import { TransferFailure } from './failure';

/** What the journal knows of a batch: its files, and those done. */
type JournaledBatch = Pick<JournalTask, 'done'> & { batchFiles: BatchFileIdentity[] };

/** The files of a journaled batch that were picked again, and the paths of those that were not (and are not done). */
export interface BatchMatch {
  files: BatchFile[];
  missing: string[];
}

/**
 * A mount batch after a reload: a picked file goes on when its relative path, size and modification time are the
 * journal's. Fails as `file_mismatch` when none of the files still to send was picked again.
 */
export function matchMountBatch(task: JournaledBatch, picked: BatchFile[]): BatchMatch {
  const byPath = new Map(picked.map((entry) => [entry.relativePath, entry]));
  return matched(task, (identity) => {
    const entry = byPath.get(identity.relativePath);
    return entry && entry.file.size === identity.size && entry.file.lastModified === identity.lastModified ? entry : undefined;
  });
}

/**
 * A share batch after a reload: each of the journal's files takes a picked file of the same name, size and
 * modification time (each picked file once), under the journal's relative path. Fails as `file_mismatch` when none
 * of the files still to send was picked again.
 */
export function matchShareBatch(task: JournaledBatch, picked: BatchFile[]): BatchMatch {
  const unused = [...picked];
  return matched(task, (identity) => {
    const index = unused.findIndex(({ file }) => file.name === identity.name && file.size === identity.size && file.lastModified === identity.lastModified);
    const entry = index >= 0 ? unused.splice(index, 1)[0] : undefined;
    return entry && { file: entry.file, relativePath: identity.relativePath };
  });
}

function matched(task: JournaledBatch, pickedFor: (identity: BatchFileIdentity) => BatchFile | undefined): BatchMatch {
  const done = new Set(task.done ?? []);
  const files: BatchFile[] = [];
  const missing: string[] = [];
  for (const identity of task.batchFiles) {
    const entry = pickedFor(identity);
    if (entry) files.push(entry);
    else if (!done.has(identity.relativePath)) missing.push(identity.relativePath);
  }
  if (files.length === 0 && missing.length > 0) throw new TransferFailure({ code: 'file_mismatch' });
  return { files, missing };
}
