import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { adminToken, blobStorageBytes, holdAllButFirst, localStorageRoot, loginAsAdmin, newPerson, setMaxUploadSizeMb, taskEnds } from './harness';
import { COURIER_READ_BYTES } from '../../workers/transport/couriers';
import { adminApi, mountBucket, storedTree } from './mounts';
import { useSuite } from './suite';
import { zipDigests } from './zip';

const suite = useSuite({}, { s3: true });
let token = '';
const MIB = 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'clipstash-explorer-'));
/** The folder a person uploads: 29 small files, one in a sub-folder, and one of 60 MiB (12 parts). */
const batch = join(folder, 'batch');
const expected = new Map<string, string>();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const api = (path: string, init: RequestInit = {}) => adminApi(suite.server.url, token)(path, init);

const tree = (path: string) => storedTree(suite.server.url, token, path);

const listbox = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
const option = (page: Page, name: string) =>
  listbox(page).locator(`[role="option"][data-path$="/${name}"], [role="option"][data-path$="/${name}/"]`);

/**
 * Copies the selected item into `destination` (names from the root) through the folder picker: it opens in the
 * folder shown, so first up to the root.
 */
async function copySelectionTo(page: Page, destination: string[]) {
  await page.getByRole('button', { name: 'Copy to…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Copy 1 items to/ });
  const where = dialog.getByText(/^Folder:/);
  while (!/Folder: Root$/.test((await where.textContent()) ?? '')) {
    const before = await where.textContent();
    await dialog.getByRole('button', { name: 'Up one level' }).click();
    await expect.poll(() => where.textContent()).not.toBe(before);
  }
  for (const name of destination) await dialog.getByRole('list', { name: 'Folders' }).getByRole('button', { name, exact: true }).click();
  await dialog.getByText(`Folder: ${destination.join(' / ')}`).waitFor();
  await dialog.getByRole('button', { name: 'Copy here' }).click();
}

/**
 * The resource timings of the first of the page's workers whose URL matches `script` to have made two requests,
 * read while it runs (a copy's couriers end with their task).
 */
function resourceTimings(page: Page, script: RegExp): Promise<{ name: string; workerStart: number }[]> {
  return vi.waitFor(
    async () => {
      for (const worker of page.workers().filter((candidate) => script.test(candidate.url()))) {
        const entries = await worker
          .evaluate(() => performance.getEntriesByType('resource').map((entry) => ({ name: entry.name, workerStart: (entry as PerformanceResourceTiming).workerStart })))
          .catch(() => []);
        if (entries.length >= 2) return entries;
      }
      throw new Error(`No worker of ${script} has made two requests yet`);
    },
    { timeout: 20_000, interval: 200 },
  );
}

beforeAll(async () => {
  mkdirSync(join(batch, 'sub'), { recursive: true });
  for (let index = 0; index < 29; index++) {
    const name = index === 0 ? 'sub/nested.txt' : `file-${String(index).padStart(2, '0')}.bin`;
    const bytes = randomBytes(1000 + index * 997);
    writeFileSync(join(batch, name), bytes);
    expected.set(name, sha256(bytes));
  }
  const big = randomBytes(60 * MIB);
  writeFileSync(join(batch, 'big.bin'), big);
  expected.set('big.bin', sha256(big));
  token = await adminToken(suite.server.url);
  await mountBucket(suite.server.url, token, suite.s3);
}, 60_000);

describe('mount explorer tasks', () => {
  it('uploads a folder with its structure, copies it LOCAL → S3 and back byte-exact, then deletes it', async () => {
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await option(page, 'docs').or(page.getByText('This folder is empty')).first().waitFor();
    await page.getByLabel('Folder to upload').setInputFiles(batch);
    await page.getByText('Uploading 30 files to /local/').first().waitFor();
    await option(page, 'batch').waitFor({ timeout: 120_000 });
    await expect.poll(async () => (await tree('/local/batch/')).size, { timeout: 120_000 }).toBe(30);
    expect(Object.fromEntries(await tree('/local/batch/'))).toEqual(Object.fromEntries(expected));

    // LOCAL → S3: the worker streams every file from the disk's signed URLs into the bucket, small files read
    // several to a request (read groups).
    const localReads: URL[] = [];
    page.context().on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/api/local-storage/')) localReads.push(url);
    });
    await option(page, 'batch').click();
    await copySelectionTo(page, ['s3']);
    expect(await taskEnds(page, 'Copy to /s3/', 'Completed')).toContain('30 done, 0 skipped, 0 failed');
    const groupReads = localReads.filter((url) => url.searchParams.getAll('key').length > 1);
    expect(groupReads.length).toBeGreaterThan(0);
    expect(localReads.length).toBeLessThan(30);
    expect(Object.fromEntries(await tree('/s3/batch/'))).toEqual(Object.fromEntries(expected));
    expect(await suite.s3.pendingUploads()).toEqual([]);

    // A second copy asks about the 30 names already there, and skips them when told to.
    await option(page, 'batch').click();
    await copySelectionTo(page, ['s3']);
    const ask = page.getByRole('dialog', { name: 'Some names already exist' });
    await ask.getByText('30 items of "Copy to /s3/" already exist where they go.').waitFor();
    await ask.getByRole('button', { name: 'Skip', exact: true }).click();
    expect(await taskEnds(page, 'Copy to /s3/', 'Completed')).toContain('0 done, 30 skipped, 0 failed');

    // S3 → LOCAL, into another folder.
    await api('fs/mkdir', { method: 'POST', body: JSON.stringify({ path: '/local/back/' }) });
    await page.goto(`${suite.server.url}/mount-explorer/s3`);
    await option(page, 'batch').click();
    await copySelectionTo(page, ['local', 'back']);
    expect(await taskEnds(page, 'Copy to /local/back/', 'Completed')).toContain('30 done');
    expect(Object.fromEntries(await tree('/local/back/batch/'))).toEqual(Object.fromEntries(expected));

    // Delete the copy on S3: the folder goes with everything in it.
    await option(page, 'batch').click();
    await page.keyboard.press('Delete');
    await page.getByRole('alertdialog', { name: 'Delete batch?' }).getByRole('button', { name: 'Delete' }).click();
    await option(page, 'batch').waitFor({ state: 'detached', timeout: 60_000 });
    expect((await tree('/s3/')).size).toBe(0);
    expect(errors).toEqual([]);
  }, 400_000);

  it('cancelling a copy stops it and leaves no half-written object or multipart upload', async () => {
    const { page } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await api('fs/mkdir', { method: 'POST', body: JSON.stringify({ path: '/s3/cancelled/' }) });
    await page.goto(`${suite.server.url}/mount-explorer/local/batch`);
    await option(page, 'big.bin').click();
    // One part goes through, the others wait for the cancel, which so lands mid-copy.
    const release = await holdAllButFirst(page.context(), /partNumber=/);
    await copySelectionTo(page, ['s3', 'cancelled']);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Task manager' });
    await sheet.getByText(/Uploading [1-9]\d?%/).first().waitFor({ timeout: 60_000 });
    await sheet.getByRole('button', { name: 'Cancel Copy to /s3/cancelled/' }).first().click();
    release();
    await sheet.getByText('Cancelled', { exact: true }).first().waitFor();
    await expect.poll(() => suite.s3.pendingUploads(), { timeout: 20_000 }).toEqual([]);
    expect((await tree('/s3/cancelled/')).size).toBe(0);
  }, 180_000);

  it('a copy of a large file between storages does not keep its bytes in the browser, nor pass them through the service worker', async () => {
    // 768 MiB, written straight into the LOCAL storage: 154 parts, read as blobs and sent. Chromium kept every one
    // of them (a 2 GiB copy failed once its blob storage was full): the service worker's fetch events held the
    // bodies, and the engine's worker its reads, until their heaps were collected, which they hardly ever were.
    // Now couriers that end every 64 MiB move the bytes, under a service worker of their own without a fetch
    // handler (public/courier-sw.js): once the copy is over, less than one courier's share is left (2 MiB here;
    // 768 MiB with the couriers' requests through the app's service worker before it counted what its events
    // hold, 1.5 GiB without the couriers).
    const size = 768 * MIB;
    await setMaxUploadSizeMb(suite.server.url, token, size / MIB + 1);
    const source = join(await localStorageRoot(suite.server, token), 'large');
    mkdirSync(source, { recursive: true });
    // Written without blocking this process: seconds of synchronous writes kept fetch's idle connection to the
    // server past the server's keep-alive time, and the next call went out on a socket the server had closed.
    const digest = createHash('sha256');
    const file = await open(join(source, 'large.bin'), 'w');
    for (let written = 0; written < size; written += 16 * MIB) {
      const chunk = randomBytes(16 * MIB);
      digest.update(chunk);
      await file.write(chunk);
    }
    await file.close();
    await api('fs/mkdir', { method: 'POST', body: JSON.stringify({ path: '/s3/large/' }) });

    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    // A page the service worker controls from its start, and so the engine's worker too: the engine's requests
    // reach the service worker as fetch events.
    await page.goto(`${suite.server.url}/mount-explorer/local/large`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    await page.reload();
    // And the couriers' own service worker active, which they would otherwise not have (the first couriers of a
    // first visit go through the app's).
    await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration('/assets/courier.worker-x.js'))?.active?.state === 'activated', null, { timeout: 20_000 });
    await option(page, 'large.bin').click();
    const before = await blobStorageBytes(context);
    await copySelectionTo(page, ['s3', 'large']);
    // Meanwhile: the couriers' requests never reached the app's service worker (no fetch event: workerStart 0); the
    // engine's own requests still do, which shows the page and its workers are controlled.
    const couriers = await resourceTimings(page, /courier\.worker/);
    expect(couriers.some((entry) => entry.name.startsWith(`${suite.server.url}/api/local-storage/`))).toBe(true);
    expect(couriers.filter((entry) => entry.workerStart > 0)).toEqual([]);
    expect((await resourceTimings(page, /transfer\.worker/)).some((entry) => entry.workerStart > 0)).toBe(true);
    expect(await taskEnds(page, 'Copy to /s3/large/', 'Completed')).toContain('1 done');
    const held = (await blobStorageBytes(context)) - before;
    expect(held).toBeLessThan(COURIER_READ_BYTES);
    expect((await tree('/s3/large/')).get('large.bin')).toBe(digest.digest('hex'));
  }, 180_000);

  it('downloads three files as one zip whose entries are byte-exact', async () => {
    const { page } = await newPerson(suite.browser);
    // The save dialog cannot be clicked in a headless test: the picker answers with a file of the origin's private
    // file system, a real FileSystemFileHandle the zip is written into.
    await page.addInitScript(() => {
      (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) =>
        (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true });
    });
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local/batch`);
    await option(page, 'file-01.bin').click();
    await option(page, 'file-03.bin').click({ modifiers: ['Shift'] });
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Download as zip' }).click();
    await taskEnds(page, 'batch.zip', 'Completed');
    const zip = Buffer.from(
      await page.evaluate(async () => {
        const file = await (await (await navigator.storage.getDirectory()).getFileHandle('batch.zip')).getFile();
        return [...new Uint8Array(await file.arrayBuffer())];
      }),
    );
    expect(zipDigests(zip)).toEqual({
      'file-01.bin': expected.get('file-01.bin'),
      'file-02.bin': expected.get('file-02.bin'),
      'file-03.bin': expected.get('file-03.bin'),
    });
  }, 120_000);
});
