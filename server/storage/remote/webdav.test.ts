import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, useTestApp } from '../../../tests/fixtures/test-app';
import { endlessBody } from '../../../tests/fixtures/endless-body';
import { RCLONE, startWebdavServer, type RunningWebdavServer } from '../../../tests/fixtures/webdav-server';
import { failureReasonOf } from '../reason';
import { localRootOf } from '../registry';
import { describeRemoteFileSystem } from './remote-fs.contract';
import { createWebdavFileSystem, WebdavError } from './webdav';
import type { RemoteFileSystem } from './remote-fs';

vi.setConfig({ hookTimeout: 60_000 });

const MIB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const fileSystemOf = (server: RunningWebdavServer, extra: { password?: string; timeoutMs?: number } = {}) =>
  createWebdavFileSystem({ endpointUrl: server.endpointUrl, username: server.username, password: server.password, ...extra });

describe.skipIf(!existsSync(RCLONE))('WebDAV against rclone serve webdav', () => {
  describeRemoteFileSystem('WebDAV (rclone)', async () => {
    const server = await startWebdavServer();
    mkdirSync(join(server.directory, 'contract'));
    return { fs: fileSystemOf(server), base: '/contract', directory: server.directory, stop: server.stop };
  });

  describe('beyond the contract', () => {
    let server: RunningWebdavServer;
    let fs: RemoteFileSystem;
    beforeAll(async () => {
      server = await startWebdavServer();
      fs = fileSystemOf(server);
    });
    afterAll(async () => {
      await fs?.close();
      await server?.stop();
    });

    it('encodes names once on the way out and decodes each href once on the way in', async () => {
      const names = ['100%25 done.txt', 'a%b.txt', 'a&b<c>.txt', "it's \"quoted\".txt", 'plus+sign=1.txt', 'hash#1?q;x.txt', '中文 文件.txt', 'é😀.txt'];
      await fs.mkdir('/names');
      for (const name of names) await fs.write(`/names/${name}`, Readable.from([Buffer.from(name)]));
      // The server's disk holds the names as given: nothing was encoded twice.
      expect(readdirSync(join(server.directory, 'names')).sort()).toEqual([...names].sort());
      expect((await fs.list('/names')).map((entry) => entry.name).sort()).toEqual([...names].sort());
      for (const name of names) {
        expect((await readAll(await fs.read(`/names/${name}`))).toString()).toBe(name);
        expect(await fs.stat(`/names/${name}`)).toMatchObject({ name, kind: 'file', size: Buffer.byteLength(name) });
      }
    });

    it('works under an address whose path has spaces and any script, its root listing only its children', async () => {
      await fs.mkdir('/sub folder');
      await fs.mkdir('/sub folder/子 目录');
      const inner = createWebdavFileSystem({
        endpointUrl: new URL('sub folder/子 目录/', server.endpointUrl).href,
        username: server.username,
        password: server.password,
      });
      try {
        await inner.write('/a b.txt', Readable.from([Buffer.from('inner')]));
        await inner.mkdir('/c');
        expect((await inner.list('/')).map((entry) => [entry.name, entry.kind]).sort()).toEqual([['a b.txt', 'file'], ['c', 'folder']]);
        expect(await inner.stat('/a b.txt')).toMatchObject({ name: 'a b.txt', size: 5 });
        expect(readdirSync(join(server.directory, 'sub folder', '子 目录')).sort()).toEqual(['a b.txt', 'c']);
      } finally {
        await inner.close();
      }
    });

    it('streams a PUT: the server holds bytes before the body has ended', async () => {
      const path = join(server.directory, 'streamed.bin');
      const body = Readable.from(
        (async function* () {
          yield randomBytes(8 * MIB);
          // Were the body buffered before sending, nothing would reach the server until it ended.
          await vi.waitFor(() => expect(statSync(path, { throwIfNoEntry: false })?.size ?? 0).toBeGreaterThan(4 * MIB), { timeout: 10_000 });
          yield randomBytes(MIB);
        })(),
      );
      await fs.write('/streamed.bin', body);
      expect((await fs.stat('/streamed.bin'))?.size).toBe(9 * MIB);
    });

    it('rejects a write whose body fails with the body\'s own error', async () => {
      const body = Readable.from(
        (async function* () {
          yield randomBytes(MIB);
          throw new Error('the upload broke');
        })(),
      );
      await expect(fs.write('/broken.bin', body)).rejects.toThrow(/the upload broke/);
    });

    it('says clearly that the password is wrong, for a listing and for a streamed write', async () => {
      const wrong = fileSystemOf(server, { password: 'not it' });
      try {
        const refused = await wrong.list('/').catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(WebdavError);
        expect(refused).toMatchObject({ code: 'Unauthorized', status: 401, message: 'The WebDAV server refused the user name or password (PROPFIND, HTTP 401)' });
        expect(failureReasonOf(refused)).toBe('bad_credentials');
        await expect(wrong.write('/nope.bin', Readable.from([randomBytes(4 * MIB)]))).rejects.toMatchObject({ code: 'Unauthorized' });
        expect(existsSync(join(server.directory, 'nope.bin'))).toBe(false);
      } finally {
        await wrong.close();
      }
    });

    it('works again once the server is back on the same port, and says it is unreachable while down', async () => {
      await fs.write('/before.txt', Readable.from([Buffer.from('before')]));
      await server.kill();
      const down = await fs.stat('/before.txt').catch((error: unknown) => error);
      expect(down).toMatchObject({ code: 'ECONNREFUSED' });
      expect(failureReasonOf(down)).toBe('unreachable');
      await server.start();
      expect(await fs.stat('/before.txt')).toMatchObject({ kind: 'file', size: 6 });
      expect((await readAll(await fs.read('/before.txt'))).toString()).toBe('before');
    });

    it('fails a read cut mid-body rather than ending it as if complete', async () => {
      await fs.write('/cut.bin', Readable.from([randomBytes(64 * MIB)]));
      const stream = await fs.read('/cut.bin');
      let received = 0;
      let killed: Promise<void> | undefined;
      const reading = (async () => {
        for await (const chunk of stream) {
          received += (chunk as Buffer).length;
          if (received >= MIB && !killed) killed = server.kill();
        }
      })();
      await expect(reading).rejects.toThrow();
      expect(received).toBeLessThan(64 * MIB);
      await killed;
      await server.start();
    });

    it('fails a write cut mid-body and leaves no file that looks complete', async () => {
      let killed: Promise<void> | undefined;
      const body = endlessBody(4 * MIB, () => (killed = server.kill()));
      await expect(fs.write('/cut-write.bin', body)).rejects.toSatisfy((error: unknown) => failureReasonOf(error) === 'unreachable');
      body.destroy();
      await killed;
      await server.start();
      // The driver writes to a temporary name and renames; here the protocol layer alone must not claim success.
      expect(await fs.list('/')).toBeInstanceOf(Array);
    });
  });
});

/** A plain HTTP server whose handler the test writes: for what no real WebDAV server does on demand. */
async function startHttpServer(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const connections: number[] = [];
  server.on('connection', () => connections.push(Date.now()));
  return {
    server,
    endpointUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    connections,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const MULTISTATUS = `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/x.txt</D:href><D:propstat><D:prop>
<D:resourcetype/><D:getcontentlength>3</D:getcontentlength><D:getetag>"e1"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>`;

describe('WebDAV connections', () => {
  it('gives up with a timeout on a server that never answers', async () => {
    const silent = await startHttpServer(() => undefined);
    const fs = createWebdavFileSystem({ endpointUrl: silent.endpointUrl, username: 'u', password: 'p', timeoutMs: 300 });
    try {
      const error = await fs.stat('/x.txt').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'ETIMEDOUT', message: 'The WebDAV server did not answer in time (PROPFIND)' });
      expect(failureReasonOf(error)).toBe('timeout');
    } finally {
      await fs.close();
      await silent.close();
    }
  });

  it('gives a request on a pooled connection the whole timeout, whatever Keep-Alive hint the server gave', async () => {
    let requests = 0;
    const slow = await startHttpServer((_req, res) => {
      // The second answer comes after the idle timeout Node takes from the hint (2 s less 1 s), within timeoutMs.
      setTimeout(() => res.writeHead(207, { 'content-type': 'application/xml' }).end(MULTISTATUS), ++requests === 1 ? 0 : 2_500);
    });
    slow.server.keepAliveTimeout = 2_000;
    const fs = createWebdavFileSystem({ endpointUrl: slow.endpointUrl, username: 'u', password: 'p', timeoutMs: 10_000 });
    try {
      expect(await fs.stat('/x.txt')).toMatchObject({ size: 3 });
      expect(await fs.stat('/x.txt')).toMatchObject({ size: 3 });
      expect(slow.connections.length).toBe(1);
    } finally {
      await fs.close();
      await slow.close();
    }
  });

  it('tries an idempotent request once more when its connection drops, never a MOVE', async () => {
    const methods: string[] = [];
    const flaky = await startHttpServer((req, res) => {
      methods.push(req.method ?? '');
      // Every first request and every MOVE loses its connection before an answer.
      if (methods.length === 1 || req.method === 'MOVE') return void req.socket.destroy();
      res.writeHead(207, { 'content-type': 'application/xml' }).end(MULTISTATUS);
    });
    const fs = createWebdavFileSystem({ endpointUrl: flaky.endpointUrl, username: 'u', password: 'p' });
    try {
      expect(await fs.stat('/x.txt')).toMatchObject({ name: 'x.txt', kind: 'file', size: 3, etag: 'e1' });
      expect(methods).toEqual(['PROPFIND', 'PROPFIND']);
      await expect(fs.rename('/x.txt', '/y.txt')).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(methods).toEqual(['PROPFIND', 'PROPFIND', 'MOVE']);
    } finally {
      await fs.close();
      await flaky.close();
    }
  });

  it('keeps at most maxConnections connections and reuses them', async () => {
    const pooled = await startHttpServer((_req, res) => res.writeHead(207, { 'content-type': 'application/xml' }).end(MULTISTATUS));
    const fs = createWebdavFileSystem({ endpointUrl: pooled.endpointUrl, username: 'u', password: 'p', maxConnections: 2 });
    try {
      for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 8 }, () => fs.stat('/x.txt')));
      expect(pooled.connections.length).toBe(2);
    } finally {
      await fs.close();
      await pooled.close();
    }
  });

  it('says when the address answers, but not as a WebDAV server', async () => {
    const site = await startHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'));
    const fs = createWebdavFileSystem({ endpointUrl: site.endpointUrl, username: 'u', password: 'p' });
    try {
      await expect(fs.list('/')).rejects.toMatchObject({ code: 'InvalidResponse', message: 'The address did not answer as a WebDAV server does (PROPFIND)' });
    } finally {
      await fs.close();
      await site.close();
    }
  });

  it('refuses an address that is not http(s) or carries credentials', () => {
    expect(() => createWebdavFileSystem({ endpointUrl: 'ftp://host/', username: 'u', password: 'p' })).toThrow(WebdavError);
    expect(() => createWebdavFileSystem({ endpointUrl: 'https://u:p@host/', username: 'u', password: 'p' })).toThrow(/carries no credentials/);
  });
});

describe("WebDAV against Clipstash's own /dav", () => {
  const t = useTestApp({ login: false });
  describeRemoteFileSystem('WebDAV (Clipstash /dav)', async () => {
    const origin = await t.listen();
    const fs = createWebdavFileSystem({ endpointUrl: `${origin}/dav/local/`, username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    await fs.mkdir('/contract');
    // `/dav/local/` is the built-in LOCAL storage: its folder on disk is what the server serves.
    const local = await t.deps.db.selectFrom('storage_configs').select('id').where('storage_type', '=', 'LOCAL').executeTakeFirstOrThrow();
    return { fs, base: '/contract', directory: localRootOf(t.deps, local.id), stop: async () => undefined };
  });
});
