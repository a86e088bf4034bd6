import { ApiError, badInput } from '../../errors';
import { ObjectNotFoundError, UnsafeKeyError } from '../../storage/driver';
import { reasonOf } from '../../storage/reason';

/**
 * Runs a storage call and turns what a driver throws into an answer: a key the driver refuses is bad input, a
 * missing object a 404, anything else the storage's fault (502, with its reason, in words and as `data.reason`),
 * never a bare 500 and never the driver's own message.
 */
export async function onStorage<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw storageError(path, error);
  }
}

export function storageError(path: string, error: unknown): Error {
  if (error instanceof ApiError) return error;
  if (error instanceof UnsafeKeyError) return badInput('path', 'invalid_path');
  if (error instanceof ObjectNotFoundError) return new ApiError(404, 'fs_not_found', { path });

  const reason = reasonOf(error);
  return new ApiError(502, 'fs_storage_unavailable', { reason }, { reason: reason.reason });
}

/**
 * The `error` of one failed entry of a batch answer: the error's reason, except a name taken (`fs_exists`), which
 * is the one failure a retry with another `onConflict` can mend and so is told apart (contract/fs.ts).
 */
export const batchErrorOf = (error: ApiError): string => (error.messageKey === 'fs_exists' ? 'fs_exists' : error.reason);
