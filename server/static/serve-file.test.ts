import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress.mjs';
import { type TestApp, useTestApp } from '../../tests/fixtures/test-app';

/** A script long enough to be compressed, and a small one that is not. */
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
const get = (t: TestApp, path: string, headers: Record<string, string> = {}, method = 'GET') => t.request(path, { headers, method });

describe('the built app, compressed', () => {
  let root: string;
  const t = useTestApp({ login: false }, async () => {
    root = mkdtempSync(join(tmpdir(), 'clipstash-compressed-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), `<!doctype html><title>x</title>${'<!-- padding -->'.repeat(100)}<script type="module" src="/assets/app-1.js"></script>`);
    writeFileSync(join(root, 'assets', 'app-1.js'), SCRIPT);
    writeFileSync(join(root, 'assets', 'tiny-1.js'), 'console.log(1)');
    writeFileSync(join(root, 'assets', 'logo-1.png'), Buffer.alloc(4096, 7));
    writeFileSync(join(root, 'manifest.webmanifest'), JSON.stringify({ name: 'x'.repeat(2000) }));
    expect(await precompressDir(root)).toBe(3); // index.html, app-1.js, the manifest
    return { staticDir: root };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sends brotli when accepted, with its own length, ETag and Vary', async () => {
    const res = await get(t, '/assets/app-1.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(SCRIPT.length / 2);
    expect(brotliDecompressSync(body).toString()).toBe(SCRIPT);
  });

  it('sends gzip when brotli is not accepted, and the plain file when neither is', async () => {
    const gz = await get(t, '/assets/app-1.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);
    const plain = await get(t, '/assets/app-1.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('honours q=0', async () => {
    const res = await get(t, '/assets/app-1.js', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const none = await get(t, '/assets/app-1.js', { 'accept-encoding': 'br;q=0, gzip;q=0, identity' });
    expect(none.headers.get('content-encoding')).toBeNull();
    expect(await none.text()).toBe(SCRIPT);
  });

  it('gives each coding its own ETag and answers a matching If-None-Match with 304', async () => {
    const tags = await Promise.all(
      ['br', 'gzip', 'identity'].map(async (coding) => (await get(t, '/assets/app-1.js', { 'accept-encoding': coding })).headers.get('etag')),
    );
    expect(new Set(tags).size).toBe(3);
    const again = await get(t, '/assets/app-1.js', { 'accept-encoding': 'br', 'if-none-match': tags[0] ?? '' });
    expect(again.status).toBe(304);
    const other = await get(t, '/assets/app-1.js', { 'accept-encoding': 'gzip', 'if-none-match': tags[0] ?? '' });
    expect(other.status).toBe(200);
  });

  it('answers a Range request from the plain file, uncompressed', async () => {
    const res = await get(t, '/assets/app-1.js', { 'accept-encoding': 'br, gzip', range: 'bytes=7-18' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-range')).toBe(`bytes 7-18/${Buffer.byteLength(SCRIPT)}`);
    expect(res.headers.get('content-length')).toBe('12');
    expect(await res.text()).toBe(SCRIPT.slice(7, 19));
    const beyond = await get(t, '/assets/app-1.js', { range: 'bytes=99999-' });
    expect(beyond.status).toBe(416);
  });

  it('answers HEAD with the headers of the chosen coding and no body', async () => {
    const get1 = await get(t, '/assets/app-1.js', { 'accept-encoding': 'br' });
    const head = await get(t, '/assets/app-1.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBe(get1.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(get1.headers.get('etag'));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the page itself compressed, with its CSP', async () => {
    const page = await get(t, '/paste/abc', { 'accept-encoding': 'br' });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toContain('/assets/app-1.js');
    const manifest = await get(t, '/manifest.webmanifest', { 'accept-encoding': 'gzip' });
    expect(manifest.headers.get('content-encoding')).toBe('gzip');
  });

  it('never compresses tiny or already-compressed files, nor sends a variant older than its file', async () => {
    for (const path of ['/assets/tiny-1.js', '/assets/logo-1.png']) {
      const res = await get(t, path, { 'accept-encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toBeNull();
    }
    // index.html replaced after the build: its old .br must not be sent in its place.
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/app-2.js"></script>');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'index.html'), later, later);
    const page = await get(t, '/upload', { 'accept-encoding': 'br' });
    expect(page.headers.get('content-encoding')).toBeNull();
    expect(await page.text()).toContain('/assets/app-2.js');
  });
});
