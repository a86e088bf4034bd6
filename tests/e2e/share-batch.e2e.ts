/**
 * Files shared together on the upload page are one task: one row whose finished view lists each file's link with a
 * copy button and copies them all at once; a file the server refuses fails alone and its retry sends only it; a
 * reload brings the finished batch back with its links, and an unfinished one sends only what it had not shared.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { a11yInBothThemes, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';
import { BACKOFF_MS } from '../../workers/engine/retry';

const suite = useSuite();
const MIB = 1024 * 1024;

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Text files `name` → content, and one large file (over the 5 MiB multipart threshold) made in the page. */
const TEXTS: Record<string, string> = {
  'alpha.txt': 'alpha\n',
  'beta.md': '# beta\n',
  'gamma.txt': 'gamma gamma\n',
  'delta.csv': 'a,b\n1,2\n',
};
const LARGE = { name: 'large.bin', size: 6 * MIB + 123 };
/** The large file's bytes, as the page makes them. */
const largeBytes = () => Uint8Array.from({ length: LARGE.size }, (_, index) => (index * 7) % 251);

/** Drops the text files and the large one on the drop zone, as a person drags them in from the desktop. */
async function dropFiles(page: Page) {
  const transfer = await page.evaluateHandle(
    ({ texts, large }) => {
      const data = new DataTransfer();
      for (const [name, text] of Object.entries(texts)) data.items.add(new File([text], name, { type: name.endsWith('.txt') ? 'text/plain' : '' }));
      data.items.add(new File([Uint8Array.from({ length: large.size }, (_, index) => (index * 7) % 251)], large.name, { type: 'application/octet-stream' }));
      return data;
    },
    { texts: TEXTS, large: LARGE },
  );
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
}

/** The links of a share batch's row: file name (its key) → slug. */
async function linksOf(row: Locator): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  for (const line of await row.locator('[data-share-path]').all()) {
    const href = (await line.getByRole('link').getAttribute('href')) ?? '';
    links.set((await line.getAttribute('data-share-path')) ?? '', decodeURIComponent(href.split('/file/')[1] ?? ''));
  }
  return links;
}

/**
 * Answers the presign of the files named in `refused` with a 503, as a server that cannot take them for now would:
 * the failure "Retry failed" is for (a 4xx would fail the same way again, and is not retried).
 */
function refusePresign(context: BrowserContext, refused: Set<string>) {
  return context.route('**/api/s3/presign', (route: Route) => {
    const { filename } = route.request().postDataJSON() as { filename: string };
    if (!refused.has(filename)) return route.continue();
    return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, message: 'Refused by the test', success: false, data: null }) });
  });
}

/** File names whose presign the page asked for, from now on. */
function presignsOf(context: BrowserContext): string[] {
  const names: string[] = [];
  context.on('request', (request) => {
    if (request.url().endsWith('/api/s3/presign') && request.method() === 'POST') names.push((request.postDataJSON() as { filename: string }).filename);
  });
  return names;
}

async function openUpload(page: Page) {
  await loginAsAdmin(page, suite.server.url);
  await page.goto(`${suite.server.url}/upload`);
}

describe('files shared together on the upload page', () => {
  it('are one task whose links each open their file, and "Copy all links" copies them one a line', async () => {
    const { page, context } = await newPerson(suite.browser, { viewport: { width: 360, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await openUpload(page);
    await dropFiles(page);
    await page.getByRole('button', { name: 'Upload 5 files' }).click();

    const rows = page.getByRole('list', { name: 'Uploads' }).locator('li[data-task-type="upload"]');
    const row = page.locator('li[data-file-name="Share 5 files"][data-task-status="completed"]');
    await row.waitFor({ timeout: 60_000 });
    expect(await rows.count()).toBe(1);
    expect(await row.textContent()).toContain('5 done, 0 skipped, 0 failed');

    const links = await linksOf(row);
    expect([...links.keys()]).toEqual([...Object.keys(TEXTS), LARGE.name]);
    for (const [name, slug] of links) {
      const info = await page.request.get(`${suite.server.url}/api/public/files/${encodeURIComponent(slug)}`);
      expect(((await info.json()) as { data: { filename: string } }).data.filename).toBe(name);
      const bytes = await (await page.request.get(`${suite.server.url}/api/file-download/${encodeURIComponent(slug)}`)).body();
      expect(sha256(bytes), name).toBe(name === LARGE.name ? sha256(largeBytes()) : sha256(Buffer.from(TEXTS[name] ?? '')));
    }
    // A link opens its share's page.
    const [opened] = await Promise.all([context.waitForEvent('page'), row.getByRole('link', { name: `/file/${links.get('gamma.txt')}` }).click()]);
    await opened.getByRole('heading', { name: 'gamma.txt' }).waitFor();
    await opened.close();

    await row.getByRole('button', { name: 'Copy all links of Share 5 files' }).click();
    await page.getByText('Links copied', { exact: true }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n')).toEqual([...links.values()].map((slug) => `${suite.server.url}/file/${slug}`));
    await row.getByRole('button', { name: 'Copy the link of beta.md' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${suite.server.url}/file/${links.get('beta.md')}`);

    // Every share of the batch joined the recent uploads (the last three are shown).
    await page.getByRole('heading', { name: 'Recent uploads' }).waitFor();
    expect(await page.locator('[data-recent-slug]').count()).toBe(3);
    // Nothing sticks out of a 360 px screen, and the row passes axe in both themes.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await a11yInBothThemes(page)).toEqual([]);

    // After a reload the finished batch is listed again, with its links.
    await page.reload();
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const restored = page.getByRole('dialog', { name: 'Task manager' }).locator('li[data-file-name="Share 5 files"][data-task-status="completed"]');
    await restored.waitFor();
    expect(await linksOf(restored)).toEqual(links);
    await context.close();
  }, 120_000);

  it('a file the server refuses fails alone; the retry sends only that one', async () => {
    const { page, context } = await newPerson(suite.browser);
    await openUpload(page);
    const refused = new Set(['gamma.txt']);
    await refusePresign(context, refused);
    const presigns = presignsOf(context);
    await dropFiles(page);
    await page.getByRole('button', { name: 'Upload 5 files' }).click();

    const row = page.locator('li[data-file-name="Share 5 files"][data-task-status="partial"]');
    await row.waitFor({ timeout: 60_000 });
    expect(await row.textContent()).toContain('4 done, 0 skipped, 1 failed');
    await expect.poll(() => row.getByRole('list', { name: 'Failed items' }).textContent()).toContain('gamma.txt');
    expect(await row.getByRole('list', { name: 'Failed items' }).textContent()).toContain('Refused by the test');
    expect([...(await linksOf(row)).keys()]).toEqual(['alpha.txt', 'beta.md', 'delta.csv', LARGE.name]);
    // Tried again with back-off, as any busy answer, before it counts as failed.
    expect(presigns.filter((name) => name === 'gamma.txt')).toHaveLength(1 + BACKOFF_MS.length);

    refused.clear();
    const sentBeforeRetry = presigns.length;
    await row.getByRole('button', { name: 'Retry the failed items of Share 5 files' }).click();
    const done = page.locator('li[data-file-name="Share 5 files"][data-task-status="completed"]');
    await done.waitFor({ timeout: 60_000 });
    expect(presigns.slice(sentBeforeRetry)).toEqual(['gamma.txt']);
    expect(await done.textContent()).toContain('5 done, 0 skipped, 0 failed');
    const links = await linksOf(done);
    expect([...links.keys()]).toEqual([...Object.keys(TEXTS), LARGE.name]);
    const gamma = await page.request.get(`${suite.server.url}/api/file-download/${encodeURIComponent(links.get('gamma.txt') ?? '')}`);
    expect((await gamma.body()).toString()).toBe(TEXTS['gamma.txt']);
    await context.close();
  }, 120_000);

  it('a reload in mid-batch waits for the files, then sends only those not shared yet', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'clipstash-share-batch-'));
    const names = ['one.txt', 'two.txt', 'three.txt', 'four.txt', 'five.txt'];
    const paths = names.map((name) => {
      const path = join(folder, name);
      writeFileSync(path, `${name}\n`);
      return path;
    });
    const { page, context } = await newPerson(suite.browser);
    await openUpload(page);
    // The last two files' presigns get no answer before the reload: the first three are shared, those two not.
    const held = new Set(['four.txt', 'five.txt']);
    await context.route('**/api/s3/presign', (route) => {
      if (held.has((route.request().postDataJSON() as { filename: string }).filename)) return; // never answered
      return route.continue();
    });
    const presigns = presignsOf(context);
    await page.getByTestId('file-input').setInputFiles(paths);
    await page.getByRole('button', { name: 'Upload 5 files' }).click();
    const row = page.locator('li[data-file-name="Share 5 files"]');
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('3 done, 0 skipped, 0 failed');

    // The reload first: unrouted before it, a held presign could get its answer and finish the batch.
    await page.reload();
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    const sentBeforeReload = presigns.length;
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const waiting = page.getByRole('dialog', { name: 'Task manager' }).locator('li[data-file-name="Share 5 files"][data-task-status="awaitingFile"]');
    await waiting.getByRole('button', { name: 'Pick the files', exact: true }).waitFor();
    await waiting.getByTestId('resume-Share 5 files').setInputFiles(paths);
    const done = page.getByRole('dialog', { name: 'Task manager' }).locator('li[data-file-name="Share 5 files"][data-task-status="completed"]');
    await done.waitFor({ timeout: 60_000 });
    expect(presigns.slice(sentBeforeReload).sort()).toEqual(['five.txt', 'four.txt']);
    const links = await linksOf(done);
    expect([...links.keys()]).toEqual(names);
    for (const [name, slug] of links) {
      const bytes = await (await page.request.get(`${suite.server.url}/api/file-download/${encodeURIComponent(slug)}`)).body();
      expect(bytes.toString()).toBe(`${name}\n`);
    }
    await context.close();
  }, 120_000);
});
