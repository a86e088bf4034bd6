/**
 * A power user's folder upload in the mount explorer: 2,000 small files are one task, go in groups, survive a
 * reload without sending an acknowledged file again, and a batch whose requests fail ends "n failed" with the
 * files listed, and its retry sends only those.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, localStorageRoot, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

/** A folder `name` of `count` text files of 1–4 KB in ten sub-folders; answers its path and the files' relative paths. */
function seedFolder(name: string, count: number) {
  const root = join(mkdtempSync(join(tmpdir(), 'clipstash-batch-')), name);
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    const relative = `sub${index % 10}/note-${index}.txt`;
    mkdirSync(join(root, `sub${index % 10}`), { recursive: true });
    writeFileSync(join(root, relative), `${relative}\n`.repeat(40 + ((index * 37) % 160)));
    files.push(relative);
  }
  return { root, files };
}

async function openExplorer(page: Page) {
  await loginAsAdmin(page, suite.server.url);
  await page.goto(`${suite.server.url}/mount-explorer/local`);
  await page.getByRole('listbox', { name: 'Files and folders' }).or(page.getByText('This folder is empty')).first().waitFor();
}

const isBatchRequest = (url: string) => url.includes('/fs/upload-batch');

/** The relative paths the transfer engine's journal recorded as acknowledged (its `itemsDone` events). */
function acknowledgedInJournal(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('clipstash-transfer-journal');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('events').objectStore('events').getAll();
          read.onerror = () => reject(read.error);
          read.onsuccess = () =>
            resolve((read.result as { event: { type: string; paths?: string[] } }[]).flatMap((row) => (row.event.type === 'itemsDone' ? (row.event.paths ?? []) : [])));
        };
      }),
  );
}

/** The relative paths a group request carries, read from its form. */
const relativePathsOf = (body: Buffer | null) => [...(body?.toString('latin1') ?? '').matchAll(/name="relativePath"\r\n\r\n([^\r]+)/g)].map((match) => match[1]!);

describe('a folder upload in the mount explorer', () => {
  it('is one task of 2,000 files that resumes after a reload without sending an acknowledged file again', async () => {
    const { root, files } = seedFolder('two-thousand', 2000);
    const { page, context } = await newPerson(suite.browser);
    await openExplorer(page);
    const requests: string[] = [];
    let answered = 0;
    context.on('request', (request) => isBatchRequest(request.url()) && requests.push(request.url()));
    context.on('requestfinished', (request) => isBatchRequest(request.url()) && answered++);
    // A slow line, so that the reload lands in the middle of the batch.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await page.getByLabel('Folder to upload').setInputFiles(root);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const rows = page.locator('li[data-task-type="upload"]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-file-name')).toBe('Upload 2,000 files to /local/');
    await expect.poll(() => answered, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(3);

    const storage = join(await localStorageRoot(suite.server, await adminToken(suite.server.url)), 'two-thousand');
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    // The files the server acknowledged before the reload (the journal's), and how each was written: none of them
    // may be written again. Files of the requests the reload cut off may be stored but were never acknowledged.
    const acknowledged = await acknowledgedInJournal(page);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeLessThan(2000);
    const before = new Map(acknowledged.map((path) => {
      const stat = statSync(join(storage, path.replace(/^two-thousand\//, '')));
      return [path, `${stat.ino}:${stat.mtimeMs}`] as const;
    }));
    const requestsBeforeReload = requests.length;

    await page.getByRole('button', { name: /^Tasks/ }).click();
    const waiting = page.locator('li[data-task-type="upload"][data-task-status="awaitingFile"]');
    await waiting.getByRole('button', { name: 'Pick the folder' }).waitFor();
    await waiting.getByTestId('resume-Upload 2,000 files to /local/').setInputFiles(root);
    const done = page.locator('li[data-task-type="upload"][data-task-status="completed"]');
    await done.waitFor({ timeout: 120_000 });
    expect(await done.textContent()).toContain('2000 done, 0 skipped, 0 failed');
    expect(await page.locator('li[data-task-type="upload"]').count()).toBe(1);

    for (const relative of files) {
      expect(readFileSync(join(storage, relative), 'utf8')).toBe(readFileSync(join(root, relative), 'utf8'));
    }
    for (const [relative, written] of before) {
      const stat = statSync(join(storage, relative.replace(/^two-thousand\//, '')));
      expect(`${stat.ino}:${stat.mtimeMs}`, `${relative} was written again`).toBe(written);
    }
    // Groups, not a request per file: the rest went in a few dozen requests.
    expect(requests.length - requestsBeforeReload).toBeLessThan(2000 / 16);
    await context.close();
  }, 240_000);

  it("moves its bar with a group's bytes on a slow line, before the group is answered", async () => {
    const { root } = seedFolder('slow-line', 64);
    const { page, context } = await newPerson(suite.browser);
    await openExplorer(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 40 * 1024 });
    let answered = 0;
    context.on('requestfinished', (request) => void (isBatchRequest(request.url()) && answered++));
    await page.getByLabel('Folder to upload').setInputFiles(root);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = page.locator('li[data-task-type="upload"]').first();
    const bar = row.getByRole('progressbar');
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    expect(answered).toBe(0);
    expect(await row.textContent()).toMatch(/\D0 done, /);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.locator('li[data-task-type="upload"][data-task-status="completed"]').waitFor({ timeout: 60_000 });
    await context.close();
  }, 120_000);

  it('ends "n failed" when requests fail, lists the files, and its retry sends only those', async () => {
    const { root, files } = seedFolder('flaky', 600);
    const { page, context } = await newPerson(suite.browser);
    await openExplorer(page);
    // Every third group is refused by a proxy that is down for it (503), every time it is tried, until it recovers:
    // a failure worth the "Retry failed" once the proxy is back.
    let seen = 0;
    const refusedFiles: string[] = [];
    const refusedGroups = new Set<string>();
    await page.route('**/fs/upload-batch', async (route) => {
      const paths = relativePathsOf(route.request().postDataBuffer());
      const group = paths[0] ?? '';
      if (!refusedGroups.has(group)) {
        if (seen++ % 3 !== 1) return route.continue();
        refusedGroups.add(group);
        refusedFiles.push(...paths);
      }
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, message: 'Refused by the proxy', success: false, data: null }) });
    });
    await page.getByLabel('Folder to upload').setInputFiles(root);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = page.locator('li[data-task-type="upload"][data-task-status="partial"]');
    await row.waitFor({ timeout: 120_000 });
    expect(refusedFiles.length).toBeGreaterThan(0);
    const failedList = row.getByRole('list', { name: 'Failed items' });
    await expect.poll(() => failedList.textContent()).toContain('Refused by the proxy');
    expect(await row.textContent()).toContain(`${600 - refusedFiles.length} done, 0 skipped, ${refusedFiles.length} failed`);

    // Every failure is listed whole (windowed past 50) and the whole list can be copied.
    await row.getByRole('button', { name: 'Copy the list' }).waitFor();

    // A retry that fails again says so in its row only: no second "see Tasks" toast over the open panel.
    await page.evaluate(() => {
      const seen = { toasts: 0 };
      (window as unknown as { toastsSeen: typeof seen }).toastsSeen = seen;
      new MutationObserver((changes) => {
        for (const change of changes) for (const node of change.addedNodes) if (node.textContent?.includes('see Tasks')) seen.toasts++;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await row.getByRole('button', { name: /^Retry the failed items/ }).click();
    await page.locator('li[data-task-type="upload"][data-task-status="running"]').waitFor();
    await row.waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => (window as unknown as { toastsSeen: { toasts: number } }).toastsSeen.toasts)).toBe(0);

    await page.unroute('**/fs/upload-batch');
    const retried: string[] = [];
    await page.route('**/fs/upload-batch', (route) => {
      retried.push(...relativePathsOf(route.request().postDataBuffer()));
      return route.continue();
    });
    await row.getByRole('button', { name: /^Retry the failed items/ }).click();
    const done = page.locator('li[data-task-type="upload"][data-task-status="completed"]');
    await done.waitFor({ timeout: 120_000 });
    expect(await done.textContent()).toContain('600 done, 0 skipped, 0 failed');
    expect(retried.sort()).toEqual([...refusedFiles].sort());
    const storage = join(await localStorageRoot(suite.server, await adminToken(suite.server.url)), 'flaky');
    for (const relative of files) expect(statSync(join(storage, relative)).size).toBe(statSync(join(root, relative)).size);
    await context.close();
  }, 240_000);

  it('walks a folder picked with the File System Access API in the worker, as one task', async () => {
    const { page, context } = await newPerson(suite.browser);
    await openExplorer(page);
    // The picker is the browser's own dialog: the test hands the page a folder of its origin's private file system
    // instead, the same kind of handle the dialog answers.
    const count = 300;
    await page.evaluate(`(async () => {
      const root = await navigator.storage.getDirectory();
      const picked = await root.getDirectoryHandle('picked', { create: true });
      for (let index = 0; index < ${count}; index++) {
        const sub = await picked.getDirectoryHandle('sub' + (index % 5), { create: true });
        const writable = await (await sub.getFileHandle('n-' + index + '.txt', { create: true })).createWritable();
        await writable.write('note ' + index + '\\n'.repeat(index % 7 + 1));
        await writable.close();
      }
      window.showDirectoryPicker = async () => picked;
    })()`);
    await page.getByRole('button', { name: 'Upload folder' }).click();
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const done = page.locator('li[data-task-type="upload"][data-task-status="completed"]');
    await done.waitFor({ timeout: 120_000 });
    expect(await done.getAttribute('data-file-name')).toBe('Upload picked to /local/');
    expect(await done.textContent()).toContain(`${count} done, 0 skipped, 0 failed`);
    const storage = join(await localStorageRoot(suite.server, await adminToken(suite.server.url)), 'picked');
    for (let index = 0; index < count; index++) {
      expect(readFileSync(join(storage, `sub${index % 5}`, `n-${index}.txt`), 'utf8')).toBe(`note ${index}${'\n'.repeat((index % 7) + 1)}`);
    }
    await context.close();
  }, 180_000);
});
