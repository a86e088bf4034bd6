import { finished } from 'node:stream';
import type { Readable } from 'node:stream';
import type { FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2';
import type { ByteRange } from '../driver';
import { RemoteNotFoundError, type RemoteEntry, type RemoteFileSystem } from './remote-fs';
import { openSftpConnection, type SftpConnection, type SftpFileSystemOptions } from './sftp-connect';
import { createSftpPool } from './sftp-pool';
import { readRange } from './sftp-read';
import { writeFile } from './sftp-write';

export type { SftpFileSystemOptions } from './sftp-connect';

/** How long a connection with nothing to do stays open. */
const IDLE_MS = 60_000;
/** Files removed at once while a folder is emptied. */
const REMOVALS_AT_ONCE = 64;

/** SFTP status codes (draft-ietf-secsh-filexfer-02) the library leaves on its errors, as system codes. */
const STATUS_CODES: Record<number, string> = { 2: 'ENOENT', 3: 'EACCES' };

const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? STATUS_CODES[code] : code;
};
const isMissing = (error: unknown) => codeOf(error) === 'ENOENT';

/** The library's errors carry SFTP status numbers; the storage layer reads system codes (server/storage/reason.ts). */
function asSystemError(error: unknown): unknown {
  const code = codeOf(error);
  if (error instanceof Error && typeof code === 'string' && code !== (error as { code?: unknown }).code) {
    return Object.assign(new Error(error.message, { cause: error }), { code });
  }
  return error;
}

/** A file or folder as RemoteEntry; links (and devices) are left out, as a link may point outside the base folder. */
function entryOf(name: string, attrs: Stats): RemoteEntry | undefined {
  const folder = attrs.isDirectory();
  if (!folder && !attrs.isFile()) return undefined;
  return { name, kind: folder ? 'folder' : 'file', size: folder ? 0 : attrs.size, modified: attrs.mtime ? new Date(attrs.mtime * 1000) : null, etag: null };
}

/** SFTP's status for the end of a folder's names. */
const STATUS_EOF = 1;
/**
 * READDIR requests kept in flight on one open folder. Each answers the next names (OpenSSH sends about 100), so a
 * folder of 10,000 costs a round trip per this many answers rather than one per answer, as the library's own
 * readdir waits for each.
 */
const READDIRS_IN_FLIGHT = 8;

/**
 * A folder's children with their attributes (the client library reads kinds from `ls -l` text, which varies). The
 * answers may come in any order: they are disjoint, whatever order the server takes the requests in, and those still
 * in flight when one says the end is reached are waited for before the folder is closed.
 */
const readdir = (sftp: SFTPWrapper, path: string) =>
  new Promise<FileEntryWithStats[]>((resolve, reject) =>
    sftp.opendir(path, (openError, handle) => {
      if (openError) return reject(asSystemError(openError));
      const answers: FileEntryWithStats[][] = [];
      let inFlight = 0;
      let ended = false;
      let failure: unknown;
      const closeWhenAnswered = () => {
        if (inFlight > 0) return;
        sftp.close(handle, (closeError) => {
          const error = failure ?? closeError;
          if (error) reject(asSystemError(error));
          else resolve(answers.flat());
        });
      };
      const ask = () => {
        inFlight++;
        sftp.readdir(handle, (error, list) => {
          inFlight--;
          if (!error) answers.push(list);
          else {
            ended = true;
            if ((error as { code?: unknown }).code !== STATUS_EOF) failure ??= error;
          }
          if (ended) closeWhenAnswered();
          else ask();
        });
      };
      for (let index = 0; index < READDIRS_IN_FLIGHT; index++) ask();
    }),
  );

/** The entry itself, never a link's target; undefined when nothing is there. */
const lstat = (sftp: SFTPWrapper, path: string) =>
  new Promise<Stats | undefined>((resolve, reject) =>
    sftp.lstat(path, (error, stats) => (!error ? resolve(stats) : isMissing(error) ? resolve(undefined) : reject(asSystemError(error)))),
  );

/** An ssh2 SFTP call that answers nothing but its error, as a promise. */
const call = (run: (callback: (error?: Error | null) => void) => void) =>
  new Promise<void>((resolve, reject) => run((error) => (error ? reject(asSystemError(error)) : resolve())));

/** Removes a file or link (never what it points at); a missing one is not an error. */
const unlink = (sftp: SFTPWrapper, path: string) =>
  new Promise<void>((resolve, reject) =>
    sftp.unlink(path, (error) => (!error || isMissing(error) ? resolve() : reject(asSystemError(error)))),
  );

const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * A RemoteFileSystem over SFTP (ssh2-sftp-client on ssh2), on a pool of up to `maxConnections` SSH connections.
 * Symbolic links are left out: listings skip them, stat answers nothing and read refuses them, as a link can point
 * outside the base folder the driver confines keys to.
 */
export function createSftpFileSystem(options: SftpFileSystemOptions): RemoteFileSystem {
  const pool = createSftpPool({
    open: (onGone) => openSftpConnection(options, onGone),
    maxConnections: Math.max(1, options.maxConnections ?? 4),
    idleMs: IDLE_MS,
  });
  /** Whether the server offers posix-rename@openssh.com, learnt from the first rename. */
  let posixRename = true;

  /** Links inside are removed, never followed. */
  async function removeTree(connection: SftpConnection, path: string): Promise<void> {
    const children = await readdir(connection.sftp, path);
    const files = children.filter((child) => !child.attrs.isDirectory());
    for (let index = 0; index < files.length; index += REMOVALS_AT_ONCE) {
      const batch = files.slice(index, index + REMOVALS_AT_ONCE);
      await Promise.all(batch.map((child) => unlink(connection.sftp, `${path}/${child.filename}`)));
    }
    for (const child of children) if (child.attrs.isDirectory()) await removeTree(connection, `${path}/${child.filename}`);
    await call((callback) => connection.sftp.rmdir(path, callback));
  }

  return {
    list: (path) =>
      pool.use(async ({ sftp }) => {
        try {
          return (await readdir(sftp, path)).flatMap((child) => entryOf(child.filename, child.attrs) ?? []);
        } catch (error) {
          if (isMissing(error)) return [];
          throw asSystemError(error);
        }
      }),

    stat: (path) =>
      pool.use(async ({ sftp }) => {
        const stats = await lstat(sftp, path);
        return stats && entryOf(lastSegment(path), stats);
      }),

    async read(path: string, range?: ByteRange): Promise<Readable> {
      const lease = await pool.lease();
      try {
        const { sftp } = lease.connection;
        const stats = await lstat(sftp, path);
        if (!stats?.isFile()) throw new RemoteNotFoundError(path);
        // A range past the end is cut at the size the file had when asked, as a whole read is.
        const stream = await readRange(lease.connection, path, range?.start ?? 0, range ? Math.min(range.end + 1, stats.size) : stats.size);
        // The connection stays counted as busy until the body has been read, failed or been given up.
        finished(stream, () => lease.release());
        return stream;
      } catch (error) {
        lease.release();
        throw asSystemError(error);
      }
    },

    write: (path, body) =>
      pool.use(async (connection) => {
        try {
          await writeFile(connection, path, body);
        } catch (error) {
          throw asSystemError(error);
        }
      }),

    mkdir: (path) =>
      pool.use(async ({ sftp }) => {
        try {
          await call((callback) => sftp.mkdir(path, callback));
        } catch (error) {
          // Made meanwhile by another call: the folder is there, which is all that was asked.
          if ((await lstat(sftp, path))?.isDirectory()) return;
          throw error;
        }
      }),

    remove: (path) => pool.use(({ sftp }) => unlink(sftp, path)),

    removeFolder: (path) =>
      pool.use(async (connection) => {
        const stats = await lstat(connection.sftp, path);
        if (!stats) return;
        if (!stats.isDirectory()) throw Object.assign(new Error(`Not a folder: ${path}`), { code: 'ENOTDIR' });
        await removeTree(connection, path);
      }),

    rename: (from, to) =>
      pool.use(async ({ client, sftp }) => {
        if (posixRename) {
          try {
            await client.posixRename(from, to);
            return;
          } catch (error) {
            if (!/does not support/i.test(error instanceof Error ? error.message : '')) throw asSystemError(error);
            posixRename = false;
          }
        }
        // Plain SFTP v3 rename refuses an existing target.
        await unlink(sftp, to);
        await client.rename(from, to).catch((error: unknown) => {
          throw asSystemError(error);
        });
      }),

    close: () => pool.close(),
  };
}
