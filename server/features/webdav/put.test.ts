import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storageConfigSchema } from '../../../contract/storage';
import { WEBDAV_UPLOAD_MODES } from '../../../contract/system';
import { basicAuth, davUrl } from '../../../tests/fixtures/dav';
import { fileClient } from '../../../tests/fixtures/files';
import { createMount } from '../../../tests/fixtures/fs';
import { startInstance, type Instance } from '../../../tests/fixtures/instances';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { putRouteOf } from './put';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const MIB = 1024 * 1024;
const AUTH = basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD);

describe('WebDAV PUT streams every body to storage the way the upload-mode setting says', () => {
  const t = useTestApp();
  let s3: RunningS3rver;
  let origin: string;
  let localRoot: string;

  const setMode = (mode: string) => t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { webdav_upload_mode: mode, max_upload_size: 2048 } });
  const put = (path: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    fetch(`${origin}${davUrl(path)}`, { method: 'PUT', headers: { authorization: AUTH, ...headers }, body, duplex: 'half' } as RequestInit);
  const get = async (path: string) => Buffer.from(await (await fetch(`${origin}${davUrl(path)}`, { headers: { authorization: AUTH } })).arrayBuffer());
  const status = async (path: string) => (await fetch(`${origin}${davUrl(path)}`, { method: 'HEAD', headers: { authorization: AUTH } })).status;

  beforeAll(async () => {
    s3 = await startS3rver();
    const config = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3.configRequest({ default_folder: 'dav' }) }), storageConfigSchema, 201);
    await createMount(t, t.token, { name: 'Bucket', storage_type: 'S3', storage_config_id: config.id, mount_path: '/bucket', cache_ttl: 60 });
    localRoot = join(t.dataDir, 'storage', (await fileClient(t).builtinLocal(t.token)).id);
    origin = await t.listen();
  });
  afterAll(async () => {
    await s3.stop();
  });

  it('picks the route: LOCAL and remote servers always stream; auto streams one part or less and sends larger or unknown bodies in parts', () => {
    expect(putRouteOf('multipart', 'LOCAL', 10 * MIB)).toBe('direct');
    for (const remote of ['WEBDAV', 'SFTP', 'FTP'] as const) expect(putRouteOf('multipart', remote, undefined)).toBe('direct');
    expect(putRouteOf('auto', 'S3', MIB)).toBe('direct');
    expect(putRouteOf('auto', 'S3', 6 * MIB)).toBe('multipart');
    expect(putRouteOf('auto', 'S3', undefined)).toBe('multipart');
    expect(putRouteOf('proxy', 'S3', MIB)).toBe('proxy');
    expect(putRouteOf('proxy', 'S3', undefined)).toBe('multipart');
  });

  for (const mode of WEBDAV_UPLOAD_MODES) {
    it(`stores 12 MiB byte-exact on S3 in ${mode} mode, with a length and chunked without one, leaving no upload open`, async () => {
      await setMode(mode);
      const bytes = randomBytes(12 * MIB);
      expect((await put(`/bucket/${mode}-sized.bin`, bytes)).status).toBe(201);
      expect((await put(`/bucket/${mode}-chunked.bin`, Readable.toWeb(Readable.from([bytes.subarray(0, 7 * MIB), bytes.subarray(7 * MIB)])) as ReadableStream<Uint8Array>)).status).toBe(201);
      expect((await get(`/bucket/${mode}-sized.bin`)).equals(bytes)).toBe(true);
      expect((await get(`/bucket/${mode}-chunked.bin`)).equals(bytes)).toBe(true);
      expect((await put(`/bucket/${mode}-sized.bin`, bytes.subarray(0, 10))).status).toBe(204);
      expect((await get(`/bucket/${mode}-sized.bin`)).equals(bytes.subarray(0, 10))).toBe(true);
      expect(await s3.pendingUploads()).toEqual([]);
    });
  }

  /**
   * Sends `sent` of `declared` bytes and, once the server has read them all, drops the connection, as a client that
   * crashed or lost its network.
   */
  const stopMidPut = async (path: string, declared: number, sent: number) => {
    const received = t.bytesReceived();
    const outgoing = request(new URL(`${origin}${davUrl(path)}`), { method: 'PUT', headers: { authorization: AUTH, 'content-length': String(declared) } });
    const closed = new Promise((resolve) => outgoing.on('close', resolve));
    outgoing.on('error', () => undefined);
    outgoing.write(Buffer.alloc(sent, 7));
    try {
      await vi.waitFor(() => expect(t.bytesReceived() - received).toBeGreaterThan(sent), { timeout: 10_000 });
    } finally {
      outgoing.destroy();
      await closed;
    }
  };

  for (const [mount, mode] of [
    ['local', 'direct'],
    ['bucket', 'direct'],
    ['bucket', 'multipart'],
  ] as const) {
    it(`leaves no object, no staged bytes and no open upload when the client stops mid-PUT (${mount}, ${mode})`, async () => {
      await setMode(mode);
      await stopMidPut(`/${mount}/stopped-${mode}.bin`, 20 * MIB, 8 * MIB);
      // The handler cleans up (removes the staged file, aborts the parts) before it ends.
      await vi.waitFor(() => expect(t.requestsUnderWay()).toBe(0), { timeout: 10_000 });
      expect(await s3.pendingUploads()).toEqual([]);
      expect(await status(`/${mount}/stopped-${mode}.bin`)).toBe(404);
      expect(readdirSync(join(localRoot, '.staging'))).toEqual([]);
    });
  }
});

// The process runs on SQLite whatever the suite's database: the PostgreSQL pass would only repeat it.
describe.skipIf(process.env.TEST_DATABASE === 'postgres')('a 1 GiB WebDAV PUT into a real server process', () => {
  let instance: Instance;
  afterAll(() => instance.stop());

  it('is streamed: the server grows by less than 64 MB while it stores the whole body', async () => {
    instance = await startInstance({ ADMIN_PASSWORD });
    const login = await fetch(`${instance.origin}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }) });
    const { data } = (await login.json()) as { data: { token: string } };
    await fetch(`${instance.origin}/api/admin/system-settings`, { method: 'PUT', headers: { authorization: `Bearer ${data.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ max_upload_size: 2048 }) });
    const rssOf = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${instance.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    const baseline = rssOf();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf())), 100);
    const chunk = randomBytes(MIB);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 1024) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${instance.origin}${davUrl('/local/one-gib.bin')}`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-length': String(1024 * MIB) },
      body,
      duplex: 'half',
    } as RequestInit);
    clearInterval(sampler);
    expect(res.status).toBe(201);
    const head = await fetch(`${instance.origin}${davUrl('/local/one-gib.bin')}`, { method: 'HEAD', headers: { authorization: AUTH } });
    expect(head.headers.get('content-length')).toBe(String(1024 * MIB));
    console.info(`1 GiB WebDAV PUT: server RSS ${Math.round(baseline / MIB)} MB → peak ${Math.round(peak / MIB)} MB`);
    expect((peak - baseline) / MIB).toBeLessThan(64);
  });
});
