import type { Readable } from 'node:stream';
import type { ByteRange } from '../driver';

/**
 * The few file operations WebDAV, SFTP and FTP all have, over absolute remote paths (`/base/folder/name`, `/` the
 * server's root). `createRemoteDriver` (remote/driver.ts) builds a whole `StorageDriver` on one: it confines keys to
 * the base folder, checks every name a server answers, stages multipart uploads on this server's disk and serves the
 * signed URLs these protocols lack. An implementation only speaks its protocol, through its ecosystem's library.
 */
export interface RemoteFileSystem {
  /** The direct children of a folder; [] when the folder does not exist. Names as the server gave them. */
  list(path: string): Promise<RemoteEntry[]>;
  /** One entry; undefined when nothing is there. */
  stat(path: string): Promise<RemoteEntry | undefined>;
  /** The file's bytes or a range of them; throws RemoteNotFoundError before any byte when there is no such file. */
  read(path: string, range?: ByteRange): Promise<Readable>;
  /**
   * Streams `body` into the file (its folder exists), replacing one that is there; resolves once the server has
   * the last byte. A failed body rejects; what it left is removed by the caller, which always writes to a
   * temporary name first and renames.
   */
  write(path: string, body: Readable): Promise<void>;
  /** Makes one folder whose parent exists; an existing folder is not an error. */
  mkdir(path: string): Promise<void>;
  /** Removes one file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /** Removes a folder and everything in it; a missing folder is not an error. */
  removeFolder(path: string): Promise<void>;
  /** Renames a file within the server, replacing the target if the protocol allows, else after removing it. */
  rename(from: string, to: string): Promise<void>;
  /** A copy made by the server itself (WebDAV COPY); absent where the protocol has none. */
  copy?(from: string, to: string): Promise<void>;
  /** Closes pooled connections; the file system is not used after. */
  close(): Promise<void>;
}

/**
 * The address a connection to `host` goes to, asked again at every connect: the SSRF guard checked the name when the
 * admin saved it, and a name whose DNS answer changes afterwards must still not reach inside. Rejects with an error
 * whose `code` says why (`HostRefused`, `ENOTFOUND`).
 */
export type AddressOf = (host: string) => Promise<string>;

export interface RemoteEntry {
  /** The last segment, as the server answered it (checked by the driver before use). */
  name: string;
  kind: 'file' | 'folder';
  size: number;
  modified: Date | null;
  /** The server's own validator of the file's bytes (WebDAV getetag); null where the protocol has none. */
  etag: string | null;
}

export class RemoteNotFoundError extends Error {
  constructor(readonly path: string) {
    super(`Nothing at ${path}`);
    this.name = 'RemoteNotFoundError';
  }
}
