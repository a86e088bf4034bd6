import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endlessBody } from '../../../tests/fixtures/endless-body';
import { ftpServerAvailable, startFtpServer, type FtpServerOptions, type RunningFtpServer } from '../../../tests/fixtures/ftp-server';
import { failureReasonOf } from '../reason';
import { createFtpFileSystem, FtpActiveModeError, type FtpFileSystemOptions } from './ftp';
import { describeRemoteFileSystem } from './remote-fs.contract';

const optionsFor = (server: RunningFtpServer, extra: Partial<FtpFileSystemOptions> = {}): FtpFileSystemOptions => ({
  host: server.host,
  port: server.port,
  username: server.username,
  password: server.password,
  tls: server.tls,
  // The test server's certificate is self-signed: trusting it is the admin's choice a test makes here.
  allowSelfSigned: server.tls !== 'none',
  ...extra,
});

const contractSubject = (serverOptions: FtpServerOptions) => async () => {
  const server = await startFtpServer(serverOptions);
  mkdirSync(join(server.directory, 'contract'));
  return { fs: createFtpFileSystem(optionsFor(server)), base: '/contract', directory: server.directory, stop: () => server.stop() };
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe.skipIf(!ftpServerAvailable())('FTP file system (ProFTPD)', () => {
  describeRemoteFileSystem('FTP', contractSubject({ tls: 'none' }));
  describeRemoteFileSystem('FTPS (explicit TLS)', contractSubject({ tls: 'explicit' }));

  describe('over implicit TLS', () => {
    let server: RunningFtpServer;
    beforeAll(async () => {
      server = await startFtpServer({ tls: 'implicit' });
    });
    afterAll(() => server?.stop());

    it('refuses a certificate no authority signed unless the admin allows it', async () => {
      const strict = createFtpFileSystem(optionsFor(server, { allowSelfSigned: false }));
      await expect(strict.list('/')).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      await strict.close();
    });

    it('writes, lists, reads whole and by range, renames and removes', async () => {
      const fs = createFtpFileSystem(optionsFor(server));
      const bytes = randomBytes(1_000_000);
      await fs.write('/implicit.bin', Readable.from([bytes]));
      expect(await fs.list('/')).toEqual([expect.objectContaining({ name: 'implicit.bin', kind: 'file', size: bytes.length })]);
      expect(sha256(await readAll(await fs.read('/implicit.bin')))).toBe(sha256(bytes));
      expect(await readAll(await fs.read('/implicit.bin', { start: 10, end: 99_999 }))).toEqual(bytes.subarray(10, 100_000));
      await fs.rename('/implicit.bin', '/renamed.bin');
      await fs.remove('/renamed.bin');
      expect(await fs.list('/')).toEqual([]);
      await fs.close();
    });
  });

  describe('on a server without MLST (LIST only, as vsftpd)', () => {
    let server: RunningFtpServer;
    beforeAll(async () => {
      server = await startFtpServer({ listOnly: true });
    });
    afterAll(() => server?.stop());

    it('lists, stats and reads through LIST, CWD, SIZE and MDTM', async () => {
      const fs = createFtpFileSystem(optionsFor(server));
      await fs.mkdir('/docs');
      await fs.mkdir('/docs');
      await fs.mkdir('/docs/inner [1]');
      for (const name of ['报告 2026.txt', 'with  two spaces.md']) await fs.write(`/docs/${name}`, Readable.from([Buffer.from(name)]));
      const listed = await fs.list('/docs');
      expect(listed.map((entry) => [entry.name, entry.kind, entry.size]).sort()).toEqual(
        [
          ['inner [1]', 'folder', 0],
          ['with  two spaces.md', 'file', 'with  two spaces.md'.length],
          ['报告 2026.txt', 'file', Buffer.byteLength('报告 2026.txt')],
        ].sort(),
      );
      expect(await fs.list('/docs/inner [1]')).toEqual([]);
      const file = await fs.stat('/docs/报告 2026.txt');
      expect(file).toMatchObject({ name: '报告 2026.txt', kind: 'file', size: Buffer.byteLength('报告 2026.txt') });
      expect(file?.modified?.getTime()).toBeGreaterThan(Date.now() - 3_600_000);
      expect(await fs.stat('/docs/inner [1]')).toMatchObject({ kind: 'folder' });
      expect(await fs.stat('/docs/missing')).toBeUndefined();
      expect((await readAll(await fs.read('/docs/with  two spaces.md'))).toString()).toBe('with  two spaces.md');
      await fs.removeFolder('/docs');
      expect(await fs.stat('/docs')).toBeUndefined();
      await fs.close();
    });
  });

  describe('on a server that refuses to rename over a file', () => {
    let server: RunningFtpServer;
    beforeAll(async () => {
      server = await startFtpServer({ allowOverwrite: false });
    });
    afterAll(() => server?.stop());

    it('removes the target first, and never when the source is missing', async () => {
      const fs = createFtpFileSystem(optionsFor(server));
      await fs.write('/from.txt', Readable.from([Buffer.from('from')]));
      await fs.write('/to.txt', Readable.from([Buffer.from('old')]));
      await fs.rename('/from.txt', '/to.txt');
      expect(await fs.stat('/from.txt')).toBeUndefined();
      expect((await readAll(await fs.read('/to.txt'))).toString()).toBe('from');
      await expect(fs.rename('/missing.txt', '/to.txt')).rejects.toThrow();
      expect((await readAll(await fs.read('/to.txt'))).toString()).toBe('from');
      await fs.close();
    });
  });

  describe('connections', () => {
    let server: RunningFtpServer;
    beforeAll(async () => {
      server = await startFtpServer();
    });
    afterAll(() => server?.stop());

    it('refuses active mode when created', () => {
      expect(() => createFtpFileSystem(optionsFor(server, { passive: false }))).toThrow(FtpActiveModeError);
    });

    it('answers a wrong password with a clear error at once, to every waiting operation', async () => {
      const fs = createFtpFileSystem(optionsFor(server, { password: 'wrong', maxConnections: 2, timeoutMs: 20_000 }));
      const began = Date.now();
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => fs.list('/')));
      expect(Date.now() - began).toBeLessThan(10_000);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        const reason = (result as PromiseRejectedResult).reason as unknown;
        expect(reason).toMatchObject({ code: 'LoginRefused' });
        expect(failureReasonOf(reason)).toBe('bad_credentials');
      }
      await fs.close();
    });

    it('reaches a server that was killed and started again', async () => {
      const fs = createFtpFileSystem(optionsFor(server, { maxConnections: 2 }));
      await fs.write('/kept.txt', Readable.from([Buffer.from('kept')]));
      // Pooled connections die with the server: the next call connects anew.
      await server.kill();
      await server.restart();
      expect((await readAll(await fs.read('/kept.txt'))).toString()).toBe('kept');
      await server.kill();
      const down = await fs.stat('/kept.txt').catch((error: unknown) => error);
      expect(failureReasonOf(down)).toBe('unreachable');
      await server.restart();
      expect(await fs.stat('/kept.txt')).toMatchObject({ kind: 'file', size: 4 });
      await fs.close();
    });

    it('fails a call to a server that stopped answering with a timeout, not a hang', async () => {
      const fs = createFtpFileSystem(optionsFor(server, { timeoutMs: 1_000 }));
      await fs.write('/frozen.txt', Readable.from([Buffer.from('ice')]));
      server.freeze();
      try {
        const began = Date.now();
        const calls = [fs.stat('/frozen.txt'), fs.stat('/frozen.txt')];
        const [pooled, fresh] = await Promise.all(calls.map((call) => call.catch((error: unknown) => error)));
        expect(Date.now() - began).toBeLessThan(5_000);
        // One call waited on the pooled connection's reply, the other on a new connection's greeting.
        expect(failureReasonOf(pooled)).toBe('timeout');
        expect(failureReasonOf(fresh)).toBe('timeout');
      } finally {
        server.thaw();
      }
      expect(await fs.stat('/frozen.txt')).toMatchObject({ kind: 'file', size: 3 });
      expect(await fs.stat('/')).toMatchObject({ kind: 'folder' });
      await fs.close();
    });

    it('rejects a read whose server goes away mid-body, and reads whole again after', async () => {
      const fs = createFtpFileSystem(optionsFor(server));
      const bytes = randomBytes(32 * 1024 * 1024);
      await fs.write('/cut.bin', Readable.from([bytes]));
      const stream = await fs.read('/cut.bin');
      const chunks = stream[Symbol.asyncIterator]();
      expect((await chunks.next()).done).toBe(false);
      await server.kill();
      const rest = (async () => {
        for (let next = await chunks.next(); !next.done; next = await chunks.next());
      })();
      await expect(rest).rejects.toThrow();
      await server.restart();
      expect(sha256(await readAll(await fs.read('/cut.bin')))).toBe(sha256(bytes));
      await fs.remove('/cut.bin');
      await fs.close();
    }, 60_000);

    it('rejects a write whose server goes away mid-body, and writes again after', async () => {
      const fs = createFtpFileSystem(optionsFor(server, { timeoutMs: 3_000 }));
      let killed: Promise<void> | undefined;
      const body = endlessBody(4 * 1024 * 1024, () => (killed = server.kill()));
      try {
        // A cut connection: the server's FIN, a reset or the data connection's end, each said as such.
        await expect(fs.write('/cut-write.bin', body)).rejects.toSatisfy((error: unknown) => ['unreachable', 'timeout'].includes(failureReasonOf(error)));
      } finally {
        body.destroy();
        await killed;
        await server.restart();
      }
      await fs.write('/after-cut.txt', Readable.from([Buffer.from('after')]));
      expect((await readAll(await fs.read('/after-cut.txt'))).toString()).toBe('after');
      await fs.close();
    }, 60_000);

    it('keeps working after ranges that stop short and readers that leave early', async () => {
      const fs = createFtpFileSystem(optionsFor(server, { maxConnections: 1 }));
      const bytes = randomBytes(4 * 1024 * 1024);
      await fs.write('/ranges.bin', Readable.from([bytes]));
      for (let at = 0; at < 5; at++) {
        expect(await readAll(await fs.read('/ranges.bin', { start: at * 1000, end: at * 1000 + 99 }))).toEqual(bytes.subarray(at * 1000, at * 1000 + 100));
      }
      (await fs.read('/ranges.bin')).destroy();
      expect(sha256(await readAll(await fs.read('/ranges.bin')))).toBe(sha256(bytes));
      await fs.remove('/ranges.bin');
      await fs.close();
    });
  });

  describe('a pool smaller than the work', () => {
    let server: RunningFtpServer;
    beforeAll(async () => {
      // The server lets in two sessions: a third connection would be refused, so the pool must keep to its two.
      server = await startFtpServer({ maxClients: 2 });
    });
    afterAll(() => server?.stop());

    it('queues parallel operations beyond its connections and finishes them all', async () => {
      const fs = createFtpFileSystem(optionsFor(server, { maxConnections: 2 }));
      const bodies = Array.from({ length: 12 }, () => randomBytes(200_000));
      await Promise.all(bodies.map((body, index) => fs.write(`/q-${index}.bin`, Readable.from([body]))));
      const [listed, ...back] = await Promise.all([
        fs.list('/'),
        ...bodies.map(async (_, index) => readAll(await fs.read(`/q-${index}.bin`))),
      ]);
      expect(listed).toHaveLength(12);
      expect(back.map((bytes) => sha256(bytes as Buffer))).toEqual(bodies.map(sha256));
      await fs.close();
    });
  });
});
