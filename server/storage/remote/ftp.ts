import { Client, FileType, FTPError, type FileInfo } from 'basic-ftp';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { createClientPool, type Lease } from './client-pool';
import { startDownload } from './ftp-read';
import { once } from 'node:events';
import { isIP } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { TLSSocket } from 'node:tls';
import { RemoteNotFoundError, type AddressOf, type RemoteEntry, type RemoteFileSystem } from './remote-fs';

export interface FtpFileSystemOptions {
  host: string;
  port?: number;
  username: string;
  password: string;
  /** `explicit`: AUTH TLS on the plain port; `implicit`: TLS from the first byte (legacy, often port 990). */
  tls: 'none' | 'explicit' | 'implicit';
  /** Only passive mode exists here (basic-ftp has no active mode): false is refused at creation. */
  passive?: boolean;
  maxConnections?: number;
  /** For connecting, each reply, and a transfer that makes no progress. */
  timeoutMs?: number;
  /**
   * Accepts a server certificate no trusted authority signed (a self-signed one): the admin's explicit choice,
   * since it also accepts an impostor's. Certificates are verified by default.
   */
  allowSelfSigned?: boolean;
  addressOf?: AddressOf;
}

/** A pooled FTP connection and what its server said it can do. */
interface FtpConnection {
  client: Client;
  /** The server advertised MLST (and so MLSD): one command answers one entry with its facts. */
  mlst: boolean;
}

export class FtpActiveModeError extends Error {
  constructor() {
    super('FTP active mode is not supported: only passive mode (PASV/EPSV) is');
    this.name = 'FtpActiveModeError';
  }
}

/** "File unavailable" replies: no such file, or one this login may not touch (servers do not tell them apart). */
const isUnavailable = (error: unknown) => error instanceof FTPError && (error.code === 550 || error.code === 450);

/** basic-ftp's own timeouts (control, data, opening a data connection) are plain errors named by their message. */
const isTimeout = (error: unknown) => error instanceof Error && error.message.startsWith('Timeout');

/** A connection the server ended or broke mid-command: basic-ftp says so in words only. */
const isCut = (error: unknown) =>
  error instanceof Error && (error.message.startsWith('Server sent FIN packet') || error.message.startsWith('Socket closed due to transmission error'));

/**
 * The error a caller sees, its code one `failureReasonOf` (storage/reason.ts) knows: a refused login, a server that
 * stopped answering. The library's own error stays as the cause, for the log.
 */
function described(error: unknown): unknown {
  if (error instanceof FTPError && error.code === 530) {
    return Object.assign(new Error('The FTP server refused the login', { cause: error }), { code: 'LoginRefused' });
  }
  if (isTimeout(error)) {
    return Object.assign(new Error('The FTP server did not answer in time', { cause: error }), { code: 'ETIMEDOUT' });
  }
  if (isCut(error)) {
    return Object.assign(new Error('The FTP server closed the connection', { cause: error }), { code: 'ECONNRESET' });
  }
  return error;
}

async function connect(options: FtpFileSystemOptions, timeoutMs: number): Promise<FtpConnection> {
  const client = new Client(timeoutMs);
  try {
    // TLS still checks the certificate against the name: connecting to the checked address must not change that.
    const servername = isIP(options.host) ? undefined : options.host;
    await client.access({
      host: options.addressOf ? await options.addressOf(options.host) : options.host,
      port: options.port ?? 21,
      user: options.username,
      password: options.password,
      secure: options.tls === 'none' ? false : options.tls === 'explicit' ? true : 'implicit',
      secureOptions: { host: options.host, ...(servername && { servername }), rejectUnauthorized: !options.allowSelfSigned },
    });
    // Commands and replies are small and alternate: Nagle's algorithm would only hold them back.
    client.ftp.socket.setNoDelay(true);
    // access() picked MLSD for listings exactly when FEAT advertised MLST.
    return { client, mlst: client.availableListCommands.includes('MLSD') };
  } catch (error) {
    client.close();
    throw described(error);
  }
}

function entryOf(info: FileInfo, name = info.name): RemoteEntry | undefined {
  // Links and special files are left out: the driver serves files and folders, and a link could point anywhere.
  if (info.type !== FileType.File && info.type !== FileType.Directory) return undefined;
  return {
    name,
    kind: info.type === FileType.Directory ? 'folder' : 'file',
    size: info.type === FileType.File ? info.size : 0,
    // MLSD and MLST give UTC times; a LIST line's date has no zone (and often no year): not a time to trust.
    modified: info.modifiedAt ?? null,
    etag: null,
  };
}

const entriesOf = (infos: FileInfo[]) => infos.flatMap((info) => entryOf(info) ?? []);

/** MLST: one entry with its facts, in one round trip; undefined when the server has nothing there. */
async function statByMlst(client: Client, path: string): Promise<RemoteEntry | undefined> {
  const reply = await client.send(`MLST ${path}`);
  // "250-Start…", then the entry line (facts, a space, the path), then "250 End".
  const line = reply.message.split(/\r?\n/).find((text) => !/^\d{3}[ -]/.test(text) && text.trim() !== '');
  if (!line) return undefined;
  // The library's MLSD parser reads the facts. It drops names with a slash (MLST answers the whole path: ours is
  // known) and the current folder's own entry (`type=cdir`, which MLST of a folder may say).
  const entry = line.replace(/^ /, '');
  const facts = entry.slice(0, entry.indexOf(' ') + 1).replace(/type=[cp]dir;/i, 'type=dir;');
  const name = posix.basename(path);
  const [info] = client.parseList(`${facts}${name}`);
  return info && entryOf(info, name);
}

/** Without MLST: a folder is what CWD enters, a file what SIZE measures (and MDTM dates). */
async function statByCommands(client: Client, path: string): Promise<RemoteEntry | undefined> {
  const name = posix.basename(path);
  try {
    await client.cd(path);
    return { name, kind: 'folder', size: 0, modified: null, etag: null };
  } catch (error) {
    if (!isUnavailable(error)) throw error;
  }
  try {
    const size = await client.size(path);
    const modified = await client.lastMod(path).catch((error: unknown) => {
      if (error instanceof FTPError) return null;
      throw error;
    });
    return { name, kind: 'file', size, modified, etag: null };
  } catch (error) {
    if (isUnavailable(error)) return undefined;
    throw error;
  }
}

async function statWith(connection: FtpConnection, path: string): Promise<RemoteEntry | undefined> {
  // The root has no name to parse an entry by; it is always a folder.
  if (path === '/') return { name: '', kind: 'folder', size: 0, modified: null, etag: null };
  try {
    return await (connection.mlst ? statByMlst : statByCommands)(connection.client, path);
  } catch (error) {
    if (isUnavailable(error)) return undefined;
    throw error;
  }
}

/**
 * The body's bytes; an empty body's end held until the TLS data connection's handshake is over on the server's side
 * too. Ended as soon as the client's side is done (an empty body), it reached ProFTPD before the handshake's last
 * message, and the upload failed ("shutdown while in init"). The server's session ticket says it is over; a
 * server that sends none is given a moment.
 */
async function* endingLate(body: Readable, dataSocket: () => unknown): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += (chunk as Buffer).length;
    yield chunk as Buffer;
  }
  const socket = dataSocket();
  if (bytes > 0 || !(socket instanceof TLSSocket)) return;
  const controller = new AbortController();
  await Promise.race([
    once(socket, 'session', { signal: controller.signal }),
    delay(EMPTY_UPLOAD_HOLD_MS, undefined, { signal: controller.signal }),
  ]).catch(() => undefined);
  controller.abort();
}

/** How long an empty upload waits at most for the server's end of the TLS handshake. */
const EMPTY_UPLOAD_HOLD_MS = 500;

/** Runs `command`; a "file unavailable" reply is no failure when what the command was for holds anyway. */
async function unlessAlready(command: () => Promise<unknown>, holds: () => Promise<boolean>) {
  try {
    await command();
  } catch (error) {
    if (isUnavailable(error) && (await holds())) return;
    throw error;
  }
}

/**
 * A RemoteFileSystem over FTP or FTPS (basic-ftp). An FTP connection carries one command or transfer at a time, so
 * up to `maxConnections` of them are pooled, each lent to one operation while the rest wait; a dropped one is
 * replaced, and an operation that met a dropped connection before doing anything runs once more on a new one.
 */
export function createFtpFileSystem(options: FtpFileSystemOptions): RemoteFileSystem {
  if (options.passive === false) throw new FtpActiveModeError();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pool = createClientPool<FtpConnection>({
    max: options.maxConnections ?? 4,
    connect: () => connect(options, timeoutMs),
    isOpen: (connection) => !connection.client.closed,
    close: (connection) => connection.client.close(),
  });

  /**
   * Lends a connection to `work`, which keeps it when it succeeds and `keep` is set (a stream that releases it
   * later). A connection left in an unknown state (any failure but a server's reply) is closed, not reused.
   */
  async function leased<T>(work: (lease: Lease<FtpConnection>) => Promise<T>, mayRetry: () => boolean, keep = false): Promise<T> {
    const lease = await pool.acquire();
    try {
      const result = await work(lease);
      if (!keep) lease.release();
      return result;
    } catch (error) {
      const dropped = !(error instanceof FTPError) && lease.client.client.closed;
      if (!(error instanceof FTPError) && !(error instanceof RemoteNotFoundError)) lease.client.client.close();
      lease.release();
      // A pooled connection the server dropped while idle (a restart, an idle timeout) fails the first command; a
      // data connection the server could not open (425, a transient reply: a TLS session ticket not yet there to
      // resume) moved no byte either.
      const staleConnection = dropped && !lease.fresh && !isTimeout(error);
      if ((staleConnection || (error instanceof FTPError && error.code === 425)) && mayRetry()) {
        return leased(work, () => false, keep);
      }
      throw described(error);
    }
  }
  const withConnection = <T>(work: (connection: FtpConnection) => Promise<T>, mayRetry = () => true) =>
    leased((lease) => work(lease.client), mayRetry);

  return {
    list: (path) =>
      withConnection(async ({ client }) => {
        // CWD, then a listing of the working folder: LIST would read glob characters of a path argument.
        try {
          await client.cd(path);
        } catch (error) {
          if (isUnavailable(error)) return [];
          throw error;
        }
        return entriesOf(await client.list());
      }),

    stat: (path) => withConnection((connection) => statWith(connection, path)),

    read: (path, range) =>
      leased(
        async (lease) => {
          try {
            return await startDownload(lease.client.client, path, range, () => lease.release());
          } catch (error) {
            if (isUnavailable(error) && (await statWith(lease.client, path))?.kind !== 'file') throw new RemoteNotFoundError(path);
            throw error;
          }
        },
        () => true,
        true,
      ),

    // A body not yet read can go again on a new connection; one partly sent cannot.
    write: (path, body: Readable) =>
      withConnection(async ({ client }) => void (await client.uploadFrom(Readable.from(endingLate(body, () => client.ftp.dataSocket), { objectMode: false }), path)), () => !body.readableDidRead),

    mkdir: (path) =>
      withConnection((connection) =>
        unlessAlready(
          () => connection.client.send(`MKD ${path}`),
          async () => (await statWith(connection, path))?.kind === 'folder',
        ),
      ),

    remove: (path) =>
      withConnection((connection) =>
        unlessAlready(
          () => connection.client.remove(path),
          async () => (await statWith(connection, path)) === undefined,
        ),
      ),

    removeFolder: (path) =>
      withConnection((connection) =>
        unlessAlready(
          () => connection.client.removeDir(path),
          async () => (await statWith(connection, path)) === undefined,
        ),
      ),

    rename: (from, to) =>
      withConnection(
        async (connection) => {
          try {
            await connection.client.rename(from, to);
          } catch (error) {
            // Servers that refuse to rename onto an existing file: remove it, then rename (never when the source is gone).
            if (!isUnavailable(error) || !(await statWith(connection, from)) || !(await statWith(connection, to))) throw error;
            await connection.client.remove(to);
            await connection.client.rename(from, to);
          }
        },
        () => false,
      ),

    close: async () => pool.close(),
  };
}
