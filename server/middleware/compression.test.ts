import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileClient } from '../../tests/fixtures/files';
import { useTestApp } from '../../tests/fixtures/test-app';

/** The parsed envelope of a compressed answer, whichever coding it came in. */
async function decoded(res: Response): Promise<{ data: unknown }> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const coding = res.headers.get('content-encoding');
  if (coding) expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  const plain = coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes;
  return JSON.parse(plain.toString()) as { data: unknown };
}

/** A GET over node:http, the body as sent (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('compressed API answers', () => {
  const t = useTestApp();
  beforeAll(async () => {
    for (let i = 0; i < 20; i++) await t.request('/api/paste', { token: t.token, json: { content: `paste number ${i}`, remark: 'a remark' } });
  });

  const list = (acceptEncoding?: string) =>
    t.request('/api/admin/pastes?page=1&limit=50', { token: t.token, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('compresses a large JSON list with the best accepted coding, with Vary and the right length', async () => {
    const br = await list('gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(br.headers.get('cache-control')).toBe('no-store');
    const plain = await list();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    const plainBody = await decoded(plain);
    expect(await decoded(br)).toEqual(plainBody);
    const gz = await list('gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await decoded(gz)).toEqual(plainBody);
    expect((await list('br;q=0, gzip;q=0')).headers.get('content-encoding')).toBeNull();
  });

  it('does the same over HTTP, where the answer\'s head goes through Node\'s response', async () => {
    const origin = await t.listen();
    const get = (acceptEncoding?: string) => rawGet(`${origin}/api/admin/pastes?page=1&limit=50`, { authorization: `Bearer ${t.token}`, ...(acceptEncoding && { 'accept-encoding': acceptEncoding }) });
    const [gz, plain] = [await get('gzip'), await get()];
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const answer of [gz, plain]) {
      expect(String(answer.headers.vary).split(', ').sort()).toEqual(['Accept-Encoding', 'Origin']);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('leaves small answers alone', async () => {
    const health = await t.request('/api/health', { headers: { 'accept-encoding': 'br' } });
    expect(health.headers.get('content-encoding')).toBeNull();
  });

  it('never compresses a login answer', async () => {
    const res = await t.request('/api/admin/login', {
      json: { username: 'admin', password: 'wrong'.repeat(10) },
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.headers.get('content-encoding')).toBeNull();
    const ok = await t.loginResponse();
    expect(ok.token).toBeTruthy();
    const raw = await t.request('/api/admin/login', { json: { username: 'admin', password: 'admin' }, headers: { 'accept-encoding': 'br' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(raw.headers.get('cache-control')).toBe('no-store, no-transform');
  });

  it('never compresses an answer that shows API keys: the new key, the list over 1 KB', async () => {
    const created = await t.request('/api/admin/api-keys', {
      token: t.token,
      json: { name: 'a key', text_permission: true },
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-encoding')).toBeNull();
    expect(created.headers.get('cache-control')).toBe('no-store, no-transform');
    for (let i = 0; i < 10; i++) await t.request('/api/admin/api-keys', { token: t.token, json: { name: `key ${i}`, text_permission: true } });
    const listed = await t.request('/api/admin/api-keys', { token: t.token, headers: { 'accept-encoding': 'br, gzip' } });
    expect((await listed.clone().arrayBuffer()).byteLength).toBeGreaterThan(1024);
    expect(listed.headers.get('content-encoding')).toBeNull();
  });

  it('never compresses a file download, even of JSON', async () => {
    const f = fileClient(t);
    const json = Buffer.from(JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i })) }));
    const share = await f.uploadOk(json, { token: t.token }, { filename: 'rows.json', type: 'application/json' });
    const download = await f.download(share.slug, '', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await download.arrayBuffer()).equals(json)).toBe(true);
    const ranged = await f.download(share.slug, '', { headers: { 'accept-encoding': 'br', range: 'bytes=0-1999' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-encoding')).toBeNull();
  });
});
