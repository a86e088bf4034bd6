import { copyObject as copyBetweenStorages, type CopyCheckpoint, type ObjectCopyOptions, type ObjectPlace } from '../../storage/object-copy';

export type { CopyCheckpoint };

/**
 * The copy every job item goes through: inside one storage its own copy; between storages the resumable copy
 * engine (server/storage/object-copy.ts: in parts with checkpoints, or by the service itself within one S3
 * service), so a paused, stopped or crashed job copies again at most the parts that were in flight.
 */
export async function copyObject(from: ObjectPlace, to: ObjectPlace, options: ObjectCopyOptions): Promise<{ etag: string; size: number }> {
  options.signal?.throwIfAborted();
  if (from.driver !== to.driver) return copyBetweenStorages(from, to, options);
  await from.driver.copy(from.key, to.key);
  options.onBytes?.(options.size);
  const head = await to.driver.head(to.key);
  if (!head) throw new Error('The copied object is missing');
  return head;
}
