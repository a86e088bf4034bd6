import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_PART_COUNT } from '../../../contract/parts';
import { oneAtATimePerId } from '../at-once';
import { InvalidPartError, MultipartUploadNotFoundError, type StoredPart } from '../driver';
import { isMissing, pathOf, STAGING, type LocalContext } from './root';

/** Multipart uploads: `.staging/multipart/<upload id>/` holds `upload.json` and the parts. */
const MULTIPART = 'multipart';
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/**
 * A stored part: `<number>.<hex digest>.part` (local/digest.ts), so that its number and ETag arrive together with
 * one rename.
 */
export const PART_FILE = /^(\d{1,5})\.([0-9a-f]{8}|[0-9a-f]{32})\.part$/;

/** The folder that holds every multipart upload of the LOCAL root `root` (the sweep of remote staging reads it). */
export const multipartFolderOf = (root: string) => join(root, STAGING, MULTIPART);

/** The folder of upload `uploadId`, whether or not it exists. */
export const uploadDirOf = (context: LocalContext, uploadId: string) => join(multipartFolderOf(context.root), uploadId);

/**
 * One thing at a time per upload within this process: storing a finished part (rename and drop the part it
 * replaces), joining, aborting. Bytes stream outside the lock; only the short file-system steps queue.
 */
const uploadQueue = oneAtATimePerId();

export function locked<T>(context: LocalContext, uploadId: string, work: () => Promise<T>): Promise<T> {
  // Upload ids are unique per root only.
  return uploadQueue(`${context.root}:${uploadId}`, work);
}

/** Refuses an upload id LOCAL would never make (it also names a folder) as an unknown upload. */
export function assertUploadId(uploadId: string): void {
  if (!UPLOAD_ID.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
}

export function assertPartNumber(partNumber: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_COUNT) throw new InvalidPartError(partNumber, 'order');
}

/** The folder of an upload of `key`; MultipartUploadNotFoundError unless it exists and belongs to that key. */
export async function uploadDir(context: LocalContext, key: string, uploadId: string): Promise<string> {
  pathOf(context, key);
  assertUploadId(uploadId);
  const dir = uploadDirOf(context, uploadId);
  try {
    const upload = JSON.parse(await readFile(join(dir, 'upload.json'), 'utf8')) as { key?: unknown };
    if (upload.key === key) return dir;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  throw new MultipartUploadNotFoundError(uploadId);
}

/** The parts in an upload's folder by part number, each the newest file stored for its number. */
export async function storedParts(dir: string): Promise<(StoredPart & { file: string })[]> {
  const newest = new Map<number, StoredPart & { file: string; mtime: number }>();
  for (const name of await readdir(dir)) {
    const match = PART_FILE.exec(name);
    if (!match) continue;
    const file = join(dir, name);
    let info;
    try {
      info = await stat(file);
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    const partNumber = Number(match[1]);
    const seen = newest.get(partNumber);
    if (!seen || info.mtimeMs > seen.mtime) {
      newest.set(partNumber, { partNumber, size: info.size, etag: match[2] ?? '', file, mtime: info.mtimeMs });
    }
  }
  return [...newest.values()].sort((a, b) => a.partNumber - b.partNumber).map(({ mtime: _mtime, ...part }) => part);
}
