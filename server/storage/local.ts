import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RelayedStorageDriver } from './driver';
import { folderExists, makeFolder, removeFolder } from './local/folders';
import { list, listTree } from './local/listing';
import { abortMultipart, completeMultipart, initMultipart, listParts, presignPart, uploadPart } from './local/multipart';
import { copy, deleteObject, get, head, move, put, sizeOf, stat as statObject } from './local/objects';
import { presignGet, presignGroupGet, presignPut } from './local/presign';
import { localContextOf, STAGING, type LocalDriverOptions } from './local/root';

/** The LOCAL driver; its signed part URLs store parts with `uploadPart`. */
export interface LocalStorageDriver extends RelayedStorageDriver {
  readonly type: 'LOCAL';
  /**
   * The size of the file at `key` (undefined: none, or a folder), without its ETag: what a read group checks. A
   * file put there by hand is not hashed for it (head would read it whole the first time).
   */
  sizeOf(key: string): Promise<number | undefined>;
}

/**
 * A folder on the server's disk. Writes go to a staging file and are renamed into place when complete, so a
 * reader never sees a partial object. The ETag is the MD5 hex of the bytes, kept beside the object so that
 * HEAD does not read the whole file.
 */
export function createLocalDriver(options: LocalDriverOptions): LocalStorageDriver {
  const context = localContextOf(options);
  return {
    type: 'LOCAL',
    put: (key, body) => put(context, key, body),
    get: (key, range) => get(context, key, range),
    sizeOf: (key) => sizeOf(context, key),
    head: (key) => head(context, key),
    delete: (key) => deleteObject(context, key),
    copy: (fromKey, toKey) => copy(context, fromKey, toKey),
    presignPut: (key, presign) => presignPut(context, key, presign),
    presignGet: (key, presign) => presignGet(context, key, presign),
    presignGroupGet: (files, presign) => presignGroupGet(context, files, presign),
    objectUrl: () => null,
    async checkAccess() {
      await mkdir(context.root, { recursive: true });
      const probe = join(context.root, STAGING);
      await mkdir(probe, { recursive: true });
      await stat(probe);
    },
    stat: (key) => statObject(context, key),
    list: (folder) => list(context, folder),
    listTree: (folder) => listTree(context, folder),
    folderExists: (folder) => folderExists(context, folder),
    makeFolder: (folder) => makeFolder(context, folder),
    removeFolder: (folder) => removeFolder(context, folder),
    move: (fromKey, toKey) => move(context, fromKey, toKey),
    initMultipart: (key, { contentType }) => initMultipart(context, key, contentType),
    presignPart: (key, uploadId, partNumber, presign) => presignPart(context, key, uploadId, partNumber, presign),
    uploadPart: (key, uploadId, partNumber, body) => uploadPart(context, key, uploadId, partNumber, body),
    listParts: (key, uploadId) => listParts(context, key, uploadId),
    completeMultipart: (key, uploadId, parts) => completeMultipart(context, key, uploadId, parts),
    abortMultipart: (key, uploadId) => abortMultipart(context, key, uploadId),
  };
}
