import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, launchBrowser, newPerson, startServer, takeCspViolations, type RunningServer } from './harness';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The built SPA as a plain static host serves it (another origin than the API, no headers of ours), the way a
 * frontend deployed apart from its backend runs; unknown paths get index.html.
 */
async function staticSpa(folder: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(folder, path);
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(folder, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

describe('a frontend on another origin', () => {
  let api: RunningServer;
  let browser: Browser;
  let listed: Awaited<ReturnType<typeof staticSpa>>;
  let stranger: Awaited<ReturnType<typeof staticSpa>>;

  beforeAll(async () => {
    [listed, stranger] = await Promise.all([staticSpa('dist'), staticSpa('dist')]);
    [api, browser] = await Promise.all([startServer({ CORS_ORIGINS: listed.origin }), launchBrowser()]);
  });
  afterEach(() => {
    expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await listed?.close();
    await stranger?.close();
  });

  /** A person on `frontend`'s copy of the app, configured (as a deployment would) to use the API server. */
  async function personOn(frontend: string) {
    const person = await newPerson(browser);
    await person.context.addInitScript((apiBaseUrl) => {
      (window as Window & { __CLIPSTASH_CONFIG__?: { apiBaseUrl: string } }).__CLIPSTASH_CONFIG__ = { apiBaseUrl };
    }, api.url);
    await person.page.goto(`${frontend}/admin`);
    await person.page.getByLabel('Username').fill(ADMIN_USERNAME);
    await person.page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await person.page.getByRole('button', { name: 'Log in' }).click();
    return person;
  }

  it('logs in and works with the API when CORS_ORIGINS lists its origin', async () => {
    const { page, context, errors } = await personOn(listed.origin);
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    await page.getByRole('link', { name: 'Key management' }).click();
    await page.getByText('No API keys yet').waitFor();

    // A script of the page with credentials: the answer and the headers a client reads are open to it.
    const key = await createKey(api.url);
    const answer = await page.evaluate(
      async ({ base, apiKey }) => {
        const res = await fetch(`${base}/api/user/pastes`, { credentials: 'include', headers: { Authorization: `ApiKey ${apiKey}` } });
        const created = await fetch(`${base}/api/paste`, {
          method: 'POST',
          credentials: 'include',
          headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ content: 'from afar', slug: '', maxViews: '5' }),
        });
        const slug = ((await created.json()) as { data: { slug: string } }).data.slug;
        const peek = await fetch(`${base}/api/raw/${slug}`, { method: 'HEAD' });
        return { list: res.status, created: created.status, size: peek.headers.get('X-Clipstash-Size') };
      },
      { base: api.url, apiKey: key },
    );
    expect(answer).toEqual({ list: 200, created: 201, size: '9' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('cannot use the API from an origin CORS_ORIGINS does not list', async () => {
    const { page, context } = await personOn(stranger.origin);
    await page.getByText('Network error, please check your connection').waitFor();
    expect(await page.getByRole('heading', { name: 'Admin panel' }).count()).toBe(0);

    const key = await createKey(api.url);
    const outcome = await page.evaluate(
      async ({ base, apiKey }) => {
        try {
          const res = await fetch(`${base}/api/user/pastes`, { credentials: 'include', headers: { Authorization: `ApiKey ${apiKey}` } });
          return `answered ${res.status}`;
        } catch (error) {
          return (error as Error).name;
        }
      },
      { base: api.url, apiKey: key },
    );
    expect(outcome).toBe('TypeError');
    await context.close();
  });
});

/** A text key, made through the API as the admin (set-up, not under test). */
async function createKey(baseUrl: string): Promise<string> {
  const token = await adminToken(baseUrl);
  const res = await fetch(`${baseUrl}/api/admin/api-keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `cors-${Date.now()}`, text_permission: true }),
  });
  return ((await res.json()) as { data: { key: string } }).data.key;
}
