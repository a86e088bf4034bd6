import type { RelayedStorageDriver, StorageDriver } from '../driver';
import { abortMultipart, initMultipart, listParts, presignPart, uploadPart } from '../local/multipart';
import { assertPartNumber, uploadDir } from '../local/uploads';
import { presignGet, presignGroupGet, presignPut } from '../local/presign';
import { remoteContextOf, remotePathOf, type RemoteDriverOptions, type RemoteKind } from './context';
import { checkAccess, folderExists, list, listTree, makeFolder, removeFolder } from './folders';
import { completeMultipart, withSentLive } from './multipart';
import { createPartRelays, LIVE_PART_MOST_BYTES } from './part-relay';
import { copy, deleteObject, get, head, move, put, stat } from './objects';

export interface RemoteStorageDriver extends RelayedStorageDriver {
  readonly type: RemoteKind;
  /** Closes the file system's connections; called when the config changes or goes. */
  close(): Promise<void>;
}

export const isRemoteDriver = (driver: StorageDriver): driver is RemoteStorageDriver =>
  driver.type === 'WEBDAV' || driver.type === 'SFTP' || driver.type === 'FTP';

/**
 * A storage on a WebDAV, SFTP or FTP server, over any RemoteFileSystem. Keys live below the config's base folder
 * and every name a server lists is checked before it becomes a key (remote/names.ts). `put` writes a hidden
 * `.clipstash-partial-<uuid>` beside the target and renames it into place. The ETag is the server's (WebDAV) or
 * the MD5 of size and modification time (remote/objects.ts `etagOf`). These protocols have no signed URLs: the
 * driver signs this server's own, as LOCAL does, and multipart parts wait on this server's disk (LOCAL's multipart
 * over `stagingRoot`) while their relay writes them on in order (remote/part-relay.ts). A part whose sender keeps its
 * bytes is not staged when its relay can take it as it arrives.
 */
export function createRemoteDriver(options: RemoteDriverOptions): RemoteStorageDriver {
  const context = remoteContextOf(options);
  const { staging } = context;
  const relays = createPartRelays(context);
  // A key the remote side would refuse is refused before anything is signed or staged for it.
  const checked = async <T>(key: string, then: () => Promise<T>) => {
    remotePathOf(context, key);
    return then();
  };
  return {
    type: options.type,
    put: (key, body) => put(context, key, body),
    get: (key, range) => get(context, key, range),
    head: (key) => head(context, key),
    sizeOf: async (key) => (await stat(context, key))?.size,
    delete: (key) => deleteObject(context, key),
    copy: (fromKey, toKey) => copy(context, fromKey, toKey),
    presignPut: (key, presign) => checked(key, () => presignPut(staging, key, presign)),
    presignGet: (key, presign) => checked(key, () => presignGet(staging, key, presign)),
    presignGroupGet: async (files, presign) => {
      for (const { key } of files) remotePathOf(context, key);
      return presignGroupGet(staging, files, presign);
    },
    objectUrl: () => null,
    checkAccess: () => checkAccess(context),
    stat: (key) => stat(context, key),
    list: (folder) => list(context, folder),
    listTree: (folder) => listTree(context, folder),
    folderExists: (folder) => folderExists(context, folder),
    makeFolder: (folder) => makeFolder(context, folder),
    removeFolder: (folder) => removeFolder(context, folder),
    move: (fromKey, toKey) => move(context, fromKey, toKey),
    initMultipart: (key, { contentType }) => checked(key, () => initMultipart(staging, key, contentType)),
    presignPart: (key, uploadId, partNumber, presign) => checked(key, () => presignPart(staging, key, uploadId, partNumber, presign)),
    uploadPart: (key, uploadId, partNumber, body, partOptions) =>
      checked(key, async () => {
        if (partOptions?.resendable && partOptions.size !== undefined && partOptions.size <= LIVE_PART_MOST_BYTES) {
          assertPartNumber(partNumber);
          await uploadDir(staging, key, uploadId);
          const sent = await relays.offer(key, uploadId, partNumber, body);
          if (sent) return sent;
        }
        const part = await uploadPart(staging, key, uploadId, partNumber, body);
        relays.stored(key, uploadId, part);
        return part;
      }),
    listParts: async (key, uploadId) => withSentLive(await listParts(staging, key, uploadId), relays.sentLive(uploadId)),
    completeMultipart: (key, uploadId, parts) => completeMultipart(context, relays, key, uploadId, parts),
    abortMultipart: async (key, uploadId) => {
      await relays.cancel(key, uploadId);
      await abortMultipart(staging, key, uploadId);
    },
    close: async () => {
      await relays.close();
      await options.fs.close();
    },
  };
}
