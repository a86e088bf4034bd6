import type { BatchFile, ShareBatchPayload, ShareOptions } from '../../contract/transfer';
import type { TaskInput } from '../../machines/task.machine';

/**
 * Keys of files shared together: each file's name, with ` (2)`, ` (3)`… for a name seen before, so that two
 * `notes.txt` from different folders are told apart in the result and the journal.
 */
export function shareBatchKeys(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let key = name;
    for (let copy = 2; taken.has(key); copy++) key = `${name} (${copy})`;
    taken.add(key);
    return key;
  });
}

/** The task of files shared together (two or more): `label` names it ("Share 12 files"). */
export function shareBatchTask(files: readonly File[], label: string, options: ShareOptions, storageConfigId?: string): TaskInput {
  const keys = shareBatchKeys(files.map((file) => file.name));
  const batch: BatchFile[] = files.map((file, index) => ({ file, relativePath: keys[index] ?? file.name }));
  // A custom link suffix is for one file alone.
  const { slug: _slug, ...shared } = options;
  const payload: ShareBatchPayload = { kind: 'shareBatchUpload', files: batch, count: batch.length, fromFolder: false, options: shared, ...(storageConfigId && { storageConfigId }) };
  return { id: crypto.randomUUID(), type: 'upload', label, payload };
}
