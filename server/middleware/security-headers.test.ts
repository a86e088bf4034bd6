import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp, type ServedApp } from '../../tests/fixtures/serve-app';
import { useTestApp, type RequestOptions } from '../../tests/fixtures/test-app';
import type { AppEnv } from '../context';
import { securityHeaders } from './security-headers';

/** The policy's directives by name. */
function directives(policy: string | null): Map<string, string[]> {
  return new Map((policy ?? '').split(';').map((part) => {
    const [name = '', ...sources] = part.trim().split(/\s+/);
    return [name, sources];
  }));
}

describe.each([false, true])('security headers (over HTTP: %s)', (overHttp) => {
  let root: string;
  const t = useTestApp({}, () => {
    root = mkdtempSync(join(tmpdir(), 'clipstash-spa-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/app-1.js"></script>');
    writeFileSync(join(root, 'assets', 'app-1.js'), 'console.log(1)');
    return { staticDir: root };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const request = (path: string, options: RequestOptions = {}) => t.request(path, { ...options, overHttp });

  it('sends X-Content-Type-Options: nosniff on pages, assets, API answers and errors', async () => {
    for (const path of ['/', '/paste/abc', '/assets/app-1.js', '/assets/missing.js', '/api/health', '/api/nothing']) {
      expect((await request(path)).headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('sends Referrer-Policy: no-referrer on pages and API answers', async () => {
    for (const path of ['/', '/file/abc', '/api/health']) {
      expect((await request(path)).headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it("gives the app's pages a strict Content-Security-Policy", async () => {
    const page = await request('/paste/abc');
    const policy = directives(page.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('worker-src')).toEqual(["'self'"]);
    for (const directive of ['img-src', 'media-src', 'frame-src']) expect(policy.get(directive)).toContain('blob:');
    // An EPUB's stylesheets and fonts reach its chapters as blob: URLs; scripts never do.
    for (const directive of ['style-src', 'font-src']) expect(policy.get(directive)).toContain('blob:');
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    // API answers are data, not documents.
    expect((await request('/api/health')).headers.get('content-security-policy')).toBeNull();
  });

  it("lets pages reach the S3 storages' origins, as the driver addresses them", async () => {
    const s3 = { storage_type: 'S3', provider_type: 'Other', access_key_id: 'AKIAEXAMPLE', secret_access_key: 'secret-key' };
    for (const body of [
      { ...s3, name: 'Path style', endpoint_url: 'http://127.0.0.1:9000', bucket_name: 'one', path_style: true },
      { ...s3, name: 'Virtual hosts', endpoint_url: 'https://r2.example.com', bucket_name: 'two', path_style: false },
    ]) {
      expect((await request('/api/s3-configs', { token: t.token, json: body })).status).toBe(201);
    }
    const policy = directives((await request('/')).headers.get('content-security-policy'));
    for (const directive of ['connect-src', 'img-src', 'media-src', 'frame-src']) {
      expect(policy.get(directive)).toEqual(expect.arrayContaining(['http://127.0.0.1:9000', 'https://two.r2.example.com']));
    }
    expect(policy.get('script-src')).toEqual(["'self'"]);
  });

  it('sends Cache-Control: no-store on API answers, with or without credentials', async () => {
    expect((await request('/api/admin/check', { token: t.token })).headers.get('cache-control')).toBe('no-store');
    // The login answer adds no-transform: it holds a token and is never compressed (server/middleware/compression.ts).
    expect((await request('/api/admin/login', { json: { username: 'admin', password: 'wrong password!' } })).headers.get('cache-control')).toBe('no-store, no-transform');
    expect((await request('/api/health')).headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the caching of assets and pages', async () => {
    expect((await request('/assets/app-1.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await request('/upload')).headers.get('cache-control')).toBe('no-cache');
  });
});

describe.each([false, true])('security headers around a route that chose its own (over HTTP: %s)', (overHttp) => {
  const app = new Hono<AppEnv>();
  // No database query happens for answers that are not HTML pages.
  app.use('*', securityHeaders(undefined as never));
  app.get('/stored.html', (c) =>
    c.body('<script>alert(1)</script>', 200, {
      'Content-Type': 'text/html',
      'Content-Security-Policy': 'sandbox',
      'Cache-Control': 'private, no-cache',
    }),
  );

  app.get('/dav/notes.txt', (c) => c.text('notes'));
  let served: ServedApp | undefined;
  beforeAll(async () => {
    if (overHttp) served = await serveApp(app.fetch);
  });
  afterAll(async () => served?.close());
  const request = (path: string, init?: RequestInit) => (served ? fetch(`${served.origin}${path}`, init) : Promise.resolve(app.request(path, init)));

  it('sends Cache-Control: no-store outside the API when the request carries credentials', async () => {
    expect((await request('/dav/notes.txt', { headers: { authorization: 'Basic eDp5' } })).headers.get('cache-control')).toBe('no-store');
    expect((await request('/dav/notes.txt')).headers.get('cache-control')).toBeNull();
  });

  it("keeps a stored file's sandbox policy and caching, and still adds nosniff", async () => {
    const res = await request('/stored.html', { headers: { authorization: 'Bearer x' } });
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
