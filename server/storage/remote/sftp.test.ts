import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { symlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endlessBody } from '../../../tests/fixtures/endless-body';
import { startRcloneSftp, startSshd, type RunningRcloneSftp, type RunningSshd } from '../../../tests/fixtures/sftp-server';
import { failureReasonOf } from '../reason';
import { describeRemoteFileSystem } from './remote-fs.contract';
import type { RemoteFileSystem } from './remote-fs';
import { createSftpFileSystem, type SftpFileSystemOptions } from './sftp';
import { openSftpConnection } from './sftp-connect';
import { createSftpPool } from './sftp-pool';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const keyAuth = (server: RunningSshd, extra: Partial<SftpFileSystemOptions> = {}): SftpFileSystemOptions => ({
  host: server.host,
  port: server.port,
  username: server.username,
  privateKey: server.privateKey,
  timeoutMs: 10_000,
  ...extra,
});

/** Runs `work` on a file system of `options`, closed after. */
async function withFs<T>(options: SftpFileSystemOptions, work: (fs: RemoteFileSystem) => Promise<T>): Promise<T> {
  const fs = createSftpFileSystem(options);
  try {
    return await work(fs);
  } finally {
    await fs.close();
  }
}

describeRemoteFileSystem('SFTP (OpenSSH sshd, key)', async () => {
  const server = await startSshd();
  const fs = createSftpFileSystem(keyAuth(server, { hostKeySha256: server.hostKeySha256 }));
  await fs.mkdir(`${server.root}/contract`);
  return { fs, base: `${server.root}/contract`, stop: () => server.stop() };
});

describeRemoteFileSystem('SFTP (rclone, password)', async () => {
  const server = await startRcloneSftp();
  const fs = createSftpFileSystem({ host: server.host, port: server.port, username: server.username, password: server.password });
  await fs.mkdir('/contract');
  return { fs, base: '/contract', stop: () => server.stop() };
});

describe('SFTP connections (OpenSSH sshd)', () => {
  let server: RunningSshd;
  beforeAll(async () => {
    server = await startSshd();
  }, 30_000);
  afterAll(() => server?.stop());

  it('accepts the pinned host key and refuses another before authenticating', async () => {
    expect(await withFs(keyAuth(server, { hostKeySha256: server.hostKeySha256 }), (fs) => fs.list(server.root))).toEqual([]);
    const loginsBefore = server.logins();
    const otherKey = `SHA256:${randomBytes(32).toString('base64').replace(/=+$/, '')}`;
    const refused = await withFs(keyAuth(server, { hostKeySha256: otherKey }), (fs) => fs.list(server.root)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SSH_HOST_KEY_MISMATCH', message: expect.stringMatching(/host key/) });
    expect(failureReasonOf(refused)).toBe('host_key_mismatch');
    // The key was never offered: the server saw no login.
    expect(server.logins()).toBe(loginsBefore);
  });

  it('signs in with a private key sealed by a passphrase, and says when the passphrase is wrong', async () => {
    const sealed = keyAuth(server, { privateKey: server.sealedKey.privateKey, passphrase: server.sealedKey.passphrase });
    expect(await withFs(sealed, (fs) => fs.stat(server.root))).toMatchObject({ kind: 'folder' });
    const wrong = await withFs({ ...sealed, passphrase: 'not it' }, (fs) => fs.stat(server.root)).catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: 'SSH_KEY_UNREADABLE' });
    expect(failureReasonOf(wrong)).toBe('bad_credentials');
  });

  it('reuses its connections: sequential calls share one, parallel ones open at most maxConnections', async () => {
    await withFs(keyAuth(server, { maxConnections: 3 }), async (fs) => {
      const before = server.logins();
      for (let index = 0; index < 5; index++) await fs.list(server.root);
      expect(server.logins() - before).toBe(1);
      await Promise.all(Array.from({ length: 12 }, (_, index) => fs.write(`${server.root}/pool-${index}.txt`, Readable.from([Buffer.from('x')]))));
      expect(server.logins() - before).toBeLessThanOrEqual(3);
    });
  });

  it('closes an idle connection, and drops a dead one at once so that the next call opens another', async () => {
    const options = keyAuth(server);
    const pool = createSftpPool({ open: (onGone) => openSftpConnection(options, onGone), maxConnections: 2, idleMs: 200 });
    try {
      await pool.use(async () => undefined);
      expect(pool.size).toBe(1);
      await vi.waitFor(() => expect(pool.size).toBe(0), { timeout: 5_000 });

      const lease = await pool.lease();
      expect(pool.size).toBe(1);
      await server.kill();
      await vi.waitFor(() => expect(pool.size).toBe(0), { timeout: 5_000 });
      lease.release();
      await server.start();
      const before = server.logins();
      expect(await pool.use(({ client }) => client.exists(server.root))).toBe('d');
      expect(server.logins() - before).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('reads ranges across many pipelined requests in order, and stops at the end of the file', async () => {
    await withFs(keyAuth(server), async (fs) => {
      const bytes = randomBytes(3 * 1024 * 1024 + 7);
      await fs.write(`${server.root}/ranges.bin`, Readable.from([bytes]));
      const read = async (start: number, end: number) => readAll(await fs.read(`${server.root}/ranges.bin`, { start, end }));
      // Compared as booleans: a failure must not print megabytes.
      expect((await read(65_000, 2_900_000)).equals(bytes.subarray(65_000, 2_900_001))).toBe(true);
      expect((await read(3 * 1024 * 1024, 3 * 1024 * 1024 + 100)).equals(bytes.subarray(3 * 1024 * 1024))).toBe(true);
      const body = await fs.read(`${server.root}/ranges.bin`);
      await once(body, 'readable');
      body.destroy();
      // After a reader that gave up, the connection serves on.
      await fs.remove(`${server.root}/ranges.bin`);
      expect(await fs.stat(`${server.root}/ranges.bin`)).toBeUndefined();
    });
  });

  it('leaves links out: listing, stat and read', async () => {
    await withFs(keyAuth(server), async (fs) => {
      await fs.mkdir(`${server.root}/links`);
      await fs.write(`${server.root}/links/real.txt`, Readable.from([Buffer.from('real')]));
      // The file system makes no links; the test makes one on the server's disk, pointing outside the folder.
      symlinkSync('/etc/hostname', `${server.root}/links/outside`);
      expect((await fs.list(`${server.root}/links`)).map((entry) => entry.name)).toEqual(['real.txt']);
      expect(await fs.stat(`${server.root}/links/outside`)).toBeUndefined();
      await expect(fs.read(`${server.root}/links/outside`)).rejects.toMatchObject({ name: 'RemoteNotFoundError' });
      await fs.removeFolder(`${server.root}/links`);
      expect(await fs.stat(`${server.root}/links`)).toBeUndefined();
    });
  });

  it('rejects a read whose connection is cut mid-body, then works again once the server is back', async () => {
    await withFs(keyAuth(server), async (fs) => {
      const bytes = randomBytes(16 * 1024 * 1024);
      await fs.write(`${server.root}/cut.bin`, Readable.from([bytes]));
      const body = await fs.read(`${server.root}/cut.bin`);
      await once(body, 'readable');
      await server.kill();
      // The length, not the bytes: a failure message must not print 16 MiB.
      await expect(readAll(body).then((read) => read.length)).rejects.toThrow();
      await expect(fs.list(server.root)).rejects.toSatisfy((error: unknown) => failureReasonOf(error) === 'unreachable');
      await server.start();
      expect((await fs.stat(`${server.root}/cut.bin`))?.size).toBe(bytes.length);
    });
  }, 60_000);

  it('fails a read cut while its reader had paused as a closed connection, whatever ssh2 answers after the close', async () => {
    await withFs(keyAuth(server), async (fs) => {
      await fs.write(`${server.root}/paused.bin`, Readable.from([randomBytes(8 * 1024 * 1024)]));
      const body = await fs.read(`${server.root}/paused.bin`);
      await once(body, 'readable');
      // Long enough for the requests in flight to be answered: the next ones are sent only once reading goes on.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await server.kill();
      await expect(readAll(body).then((read) => read.length)).rejects.toThrow(/closed during the read/);
      await server.start();
    });
  }, 30_000);

  it('rejects a write whose connection is cut mid-body, in the keepalive time at most, never hanging', async () => {
    await withFs(keyAuth(server, { timeoutMs: 3000 }), async (fs) => {
      let cut: Promise<void> | undefined;
      const body = endlessBody(4 * 1024 * 1024, () => (cut = server.kill()));
      const started = Date.now();
      await expect(fs.write(`${server.root}/cut-write.bin`, body)).rejects.toSatisfy((error: unknown) => failureReasonOf(error) !== 'unknown');
      expect(Date.now() - started).toBeLessThan(20_000);
      body.destroy();
      await cut;
      await server.start();
      expect(await fs.list(server.root)).toBeInstanceOf(Array);
    });
  }, 60_000);
});

describe('SFTP connections (rclone, password)', () => {
  let server: RunningRcloneSftp;
  beforeAll(async () => {
    server = await startRcloneSftp();
  }, 30_000);
  afterAll(() => server?.stop());

  it('says a wrong password plainly, without hanging', async () => {
    const started = Date.now();
    const options = { host: server.host, port: server.port, username: server.username, password: 'wrong', timeoutMs: 20_000 };
    const refused = await withFs(options, (fs) => fs.list('/')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SSH_AUTH_FAILED', message: 'The server refused the username, password or key' });
    expect(failureReasonOf(refused)).toBe('bad_credentials');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('SFTP connection timeout', () => {
  it('gives up on a server that never answers the handshake after timeoutMs', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      const error = await withFs({ host: '127.0.0.1', port, username: 'x', password: 'y', timeoutMs: 500 }, (fs) => fs.list('/')).catch((caught: unknown) => caught);
      expect(failureReasonOf(error)).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
