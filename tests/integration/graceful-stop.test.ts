/**
 * The real built server's connections: an idle keep-alive one outlives Node's default 5 s, as reverse proxies
 * expect; and the server stopped with SIGTERM in the middle of a 200 MB download: the download ends whole, new
 * connections are refused meanwhile, and the process exits 0 once it is done.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageConfigListSchema } from '../../contract/storage';
import { builtAdminInstance } from '../fixtures/instances';

const ADMIN_PASSWORD = 'a graceful stop, please';
const MIB = 1024 * 1024;
const SIZE = 200 * MIB;
/** Read before the signal: the rest is still on its way when the server starts to stop. */
const READ_BEFORE_SIGNAL = 16 * MIB;

/**
 * A sparse file of `size` bytes (made in an instant, holding no disk space) with random MiBs at its start, middle
 * and end, so that a download that lost, repeated or reordered bytes has the wrong hash.
 */
function sparseFile(path: string, size: number) {
  const fd = openSync(path, 'w');
  try {
    for (const at of [0, size / 2, size - MIB]) writeSync(fd, randomBytes(MIB), 0, MIB, at);
  } finally {
    closeSync(fd);
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether a new TCP connection to `origin` is refused (rather than accepted). */
function refusesConnections(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Two GETs of /api/health on one TCP connection, `idleMs` apart: the second answer's status line, or 'closed'. */
async function secondAnswerAfterIdle(origin: string, idleMs: number): Promise<string> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  const request = `GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
  try {
    socket.write(request);
    await expect.poll(() => received).toContain('"status":"ok"');
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    if (closed) return 'closed';
    received = '';
    socket.write(request);
    await expect.poll(() => closed || received.includes('\r\n')).toBe(true);
    return received ? (received.split('\r\n')[0] ?? '') : 'closed';
  } finally {
    socket.destroy();
  }
}

describe('the built server: idle connections and SIGTERM during a download', () => {
  const server = builtAdminInstance({ ADMIN_PASSWORD, SHUTDOWN_GRACE_MS: '120000' }, 'graceful');
  const { call, ok } = server;

  it("keeps an idle connection open past Node's default 5 s, as a reverse proxy reusing it expects", async () => {
    expect(await secondAnswerAfterIdle(server.instance().origin, 6_000)).toBe('HTTP/1.1 200 OK');
  }, 30_000);

  it('ends the download whole, refuses new connections meanwhile, and exits 0', async () => {
    const configs = await ok(call(server.instance(), '/api/s3-configs'), storageConfigListSchema);
    const local = configs.find((config) => config.storage_type === 'LOCAL' && config.is_default);
    if (!local) throw new Error('no default LOCAL storage');
    const folder = join(server.dataDir(), 'storage', local.id);
    mkdirSync(folder, { recursive: true });
    sparseFile(join(folder, 'big.bin'), SIZE);
    const expected = await sha256Of(join(folder, 'big.bin'));

    const res = await call(server.instance(), '/api/admin/fs/download?path=/local/big.bin');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const hash = createHash('sha256');
    let received = 0;
    const readUntil = async (bytes: number) => {
      while (received < bytes) {
        const { value, done } = await reader.read();
        if (done) return;
        hash.update(value);
        received += value.byteLength;
      }
    };
    await readUntil(READ_BEFORE_SIGNAL);

    const exited = new Promise<number | null>((resolve) => server.instance().child.once('exit', (code) => resolve(code)));
    server.instance().child.kill('SIGTERM');
    await expect.poll(() => server.instance().output(), { timeout: 10_000 }).toContain('"msg":"Stopping');
    // The download is not over: the server stopped listening but not answering it.
    expect(received).toBeLessThan(SIZE / 2);
    expect(await refusesConnections(server.instance().origin)).toBe(true);
    expect(server.instance().child.exitCode).toBeNull();

    await readUntil(Infinity);
    expect(received).toBe(SIZE);
    expect(hash.digest('hex')).toBe(expected);
    expect(await exited).toBe(0);
    expect(server.instance().output()).toContain('"msg":"Stopped"');
    expect(server.instance().output()).not.toContain('were cut');
  }, 300_000);
});

