import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Client as FtpClient } from 'basic-ftp';
import { PassThrough } from 'node:stream';
import { createClient } from 'webdav';
import { ftpServerAvailable, startFtpServer } from '../../tests/fixtures/ftp-server';
import { RCLONE, startWebdavServer } from '../../tests/fixtures/webdav-server';

/** A real server of one protocol serving a folder of this machine, and the config body that reaches it. */
export interface RemoteServer {
  config: Record<string, unknown>;
  /** The folder the server serves as `/`. */
  directory: string;
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
  start(): Promise<RemoteServer>;
  direct(server: RemoteServer): Promise<DirectClient>;
}

const ftp: RemoteKind = {
  name: 'FTP',
  needs: 'ProFTPD (proftpd-core), run as root',
  available: ftpServerAvailable,
  async start() {
    const server = await startFtpServer();
    const { host, port, username, password } = server;
    return { config: { storage_type: 'FTP', host, port, username, password, tls: 'none' }, directory: server.directory, stop: () => server.stop() };
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
  async start() {
    const server = await startWebdavServer();
    const { endpointUrl, username, password } = server;
    return { config: { storage_type: 'WEBDAV', endpoint_url: endpointUrl, username, password }, directory: server.directory, stop: () => server.stop() };
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

export const remoteKinds: RemoteKind[] = [webdav, ftp];
