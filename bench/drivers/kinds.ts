import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Client as FtpClient } from 'basic-ftp';
import { PassThrough } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import { createClient } from 'webdav';
import { ftpServerAvailable, startFtpServer } from '../../tests/fixtures/ftp-server';
import { startSshd } from '../../tests/fixtures/sftp-server';
import { RCLONE, startWebdavServer } from '../../tests/fixtures/webdav-server';

/** A real server of one protocol serving a folder of this machine, and the config body that reaches it. */
export interface RemoteServer {
  config: Record<string, unknown>;
  /** A folder on this machine that the server serves, owned by the account the server runs as. */
  directory: string;
  /** That folder's path on the server: '' where the server serves it as its `/`. */
  remotePath: string;
  stop(): Promise<void>;
}

/** The same work done straight with the protocol's own client library: the bench's yardstick. */
export interface DirectClient {
  upload(path: string, body: Readable): Promise<void>;
  download(path: string): Promise<AsyncIterable<Uint8Array>>;
  /** How many entries the folder lists. */
  count(path: string): Promise<number>;
  close(): Promise<void>;
}

export interface RemoteKind {
  name: 'FTP' | 'SFTP' | 'WEBDAV';
  /** What must be installed, for the line that says a kind was skipped. */
  needs: string;
  available(): boolean;
  /**
   * Whether the bare relay's floor (bare-relay.ts) is measured. It uploads with the direct client, and
   * ssh2-sftp-client's `put` of a stream sends each network-sized chunk and waits for its answer: minutes for
   * 512 MiB, a floor of that client rather than of relaying.
   */
  relayFloor: boolean;
  start(): Promise<RemoteServer>;
  direct(server: RemoteServer): Promise<DirectClient>;
}

const ftp: RemoteKind = {
  name: 'FTP',
  needs: 'ProFTPD (proftpd-core), run as root',
  available: ftpServerAvailable,
  relayFloor: true,
  async start() {
    const server = await startFtpServer();
    const { host, port, username, password } = server;
    return { config: { storage_type: 'FTP', host, port, username, password, tls: 'none' }, directory: server.directory, remotePath: '', stop: () => server.stop() };
  },
  async direct({ config }) {
    const client = new FtpClient();
    await client.access({ host: String(config.host), port: Number(config.port), user: String(config.username), password: String(config.password) });
    return {
      upload: async (path, body) => void (await client.uploadFrom(body, path)),
      async download(path) {
        const sink = new PassThrough();
        void client.downloadTo(sink, path).catch((error: Error) => sink.destroy(error));
        return sink;
      },
      count: async (path) => (await client.list(path)).length,
      close: async () => client.close(),
    };
  },
};

const webdav: RemoteKind = {
  name: 'WEBDAV',
  needs: 'rclone',
  available: () => existsSync(RCLONE),
  relayFloor: true,
  async start() {
    const server = await startWebdavServer();
    const { endpointUrl, username, password } = server;
    return { config: { storage_type: 'WEBDAV', endpoint_url: endpointUrl, username, password }, directory: server.directory, remotePath: '', stop: () => server.stop() };
  },
  async direct({ config }) {
    // Basic credentials in UTF-8 (the package's own encoding is Latin-1, and the test server's password is not).
    const basic = Buffer.from(`${String(config.username)}:${String(config.password)}`).toString('base64');
    const client = createClient(String(config.endpoint_url), { headers: { Authorization: `Basic ${basic}` } });
    return {
      upload: async (path, body) => void (await client.putFileContents(path, body, { overwrite: true })),
      download: async (path) => client.createReadStream(path) as Readable,
      count: async (path) => ((await client.getDirectoryContents(path)) as unknown[]).length,
      close: async () => undefined,
    };
  },
};

const sftp: RemoteKind = {
  name: 'SFTP',
  needs: "OpenSSH's sshd (openssh-server)",
  available: () => existsSync('/usr/sbin/sshd'),
  relayFloor: false,
  async start() {
    const server = await startSshd();
    const { host, port, username, privateKey, hostKeySha256 } = server;
    return {
      config: { storage_type: 'SFTP', host, port, username, private_key: privateKey, host_key_sha256: hostKeySha256 },
      directory: server.root,
      remotePath: server.root,
      stop: () => server.stop(),
    };
  },
  async direct({ config }) {
    const client = new SftpClient();
    await client.connect({ host: String(config.host), port: Number(config.port), username: String(config.username), privateKey: String(config.private_key) });
    return {
      upload: async (path, body) => void (await client.put(body, path)),
      download: async (path) => client.createReadStream(path),
      count: async (path) => (await client.list(path)).length,
      close: async () => void (await client.end()),
    };
  },
};

export const remoteKinds: RemoteKind[] = [webdav, sftp, ftp];
