import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, startServer } from '../tests/e2e/harness';

/** Gzip size of every JavaScript file the page fetched until `ready` resolved (its first real render). */
async function jsGzipKb(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<number> {
  const scripts = new Map<string, Buffer>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.set(response.url(), await response.body());
  });
  await page.goto(url);
  await ready(page);
  const total = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body).length, 0);
  return Math.round((total / 1024) * 10) / 10;
}

/** `paste_view_js_gzip_kb` and `home_js_gzip_kb`: what a visitor's browser loads before the page shows content. */
export async function pageWeight() {
  buildIfStale();
  const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  try {
    const login = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    });
    const { data } = (await login.json()) as { data: { token: string } };
    await fetch(`${server.url}/api/paste`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `Bearer ${data.token}` },
      body: JSON.stringify({ slug: 'bench', content: '# Benchmark\n\nSome *text* and a list:\n\n- one\n- two\n\n```js\nconst x = 1;\n```' }),
    });

    const visitor = await browser.newContext();
    const pasteKb = await jsGzipKb(await visitor.newPage(), `${server.url}/paste/bench`, (page) =>
      page.getByRole('heading', { name: 'Benchmark' }).waitFor(),
    );
    const homeKb = await jsGzipKb(await visitor.newPage(), `${server.url}/`, (page) => page.locator('.cm-content').waitFor());
    console.log(`paste_view_js_gzip_kb: ${pasteKb}`);
    console.log(`home_js_gzip_kb: ${homeKb}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}
