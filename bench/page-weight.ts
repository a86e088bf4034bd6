import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { adminToken, launchBrowser, startServer } from '../tests/e2e/harness';
import { reportColdLoads } from './page-load';
import { benchSize } from './size';

/**
 * Gzip size of the JavaScript a fresh visitor's browser requested before `selector` first appeared: the code
 * that stands between a click on a link and its first real render. Code requested afterwards (syntax
 * colouring, say) does not count.
 */
async function jsBeforeFirstRenderKb(browser: Browser, url: string, selector: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const bodies = new Map<string, Buffer>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    // A script that arrives as the context closes (code loaded once the page has settled) is not counted anyway.
    response.body().then((body) => bodies.set(response.url(), body), () => undefined);
  });
  await page.addInitScript((wanted: string) => {
    const marker = window as unknown as { __firstRenderAt?: number };
    new MutationObserver((_, observer) => {
      if (document.querySelector(wanted)) {
        marker.__firstRenderAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { subtree: true, childList: true });
  }, selector);
  await page.goto(url);
  await page.locator(selector).first().waitFor();
  await page.waitForLoadState('networkidle');
  const early = await page.evaluate(() => {
    const at = (window as unknown as { __firstRenderAt: number }).__firstRenderAt;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < at && /\.m?js(\?|$)/.test(entry.name))
      .map((entry) => entry.name);
  });
  const total = early.reduce((sum, name) => sum + gzipSync(bodies.get(name) ?? Buffer.alloc(0)).length, 0);
  await context.close();
  return Math.round((total / 1024) * 10) / 10;
}

/** A small text file shared by the admin; returns its slug. */
async function uploadFile(baseUrl: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob(['hello from the page-weight bench\n'], { type: 'text/plain' }), 'bench.txt');
  const res = await fetch(`${baseUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  if (!res.ok) throw new Error(`upload answered ${res.status}`);
  return ((await res.json()) as { data: { slug: string } }).data.slug;
}

/**
 * `paste_view_js_gzip_kb` and `home_js_gzip_kb`, then what a browser really transfers on a cold load of each
 * visitor page from the server as `npm start` runs it (median of 3): script bytes on the wire and decoded, first
 * contentful paint, long tasks until network idle; then, once the page has settled and loaded what it defers
 * (src/lib/idle.ts), the script bytes on the wire and long tasks in all (`*_script_settled_kb`, `*_settled_long_tasks`).
 */
export async function pageWeight() {
  const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  try {
    const token = await adminToken(server.url);
    await fetch(`${server.url}/api/paste`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ slug: 'bench', content: '# Benchmark\n\nSome *text*:\n\n- one\n- two\n\n```js\nconst x = 1;\n```' }),
    });
    console.log(`paste_view_js_gzip_kb: ${await jsBeforeFirstRenderKb(browser, `${server.url}/paste/bench`, '.markdown-body h1')}`);
    // The editor's first render is its textarea; CodeMirror takes its place once the page has settled.
    const editor = '[data-testid="markdown-editor"] > :is(textarea, .cm-editor)';
    console.log(`home_js_gzip_kb: ${await jsBeforeFirstRenderKb(browser, `${server.url}/`, editor)}`);
    const fileSlug = await uploadFile(server.url, token);
    const pages: [string, string][] = [['paste', '/paste/bench'], ['file', `/file/${fileSlug}`], ['home', '/'], ['upload', '/upload']];
    for (const [name, path] of pages) await reportColdLoads(browser, name, `${server.url}${path}`, benchSize(3, 1));
  } finally {
    await browser.close();
    await server.stop();
  }
}
