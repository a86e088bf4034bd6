import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, blobStorageBytes, localStorageRoot, loginAsAdmin, newPerson, setMaxUploadSizeMb, taskEnds } from './harness';
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

    // LOCAL → S3: a server job copies every file; the page reads none of them.
    const localReads: URL[] = [];
    page.context().on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/api/local-storage/')) localReads.push(url);
    });
    await option(page, 'batch').click();
    await copySelectionTo(page, ['s3']);
    expect(await taskEnds(page, 'Copy to /s3/', 'Completed')).toContain('30 done, 0 skipped, 0 failed');
    expect(localReads).toEqual([]);
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

  it('a copy of a large file between storages is a server job: cancelled mid-way it leaves nothing, retried it ends exact', async () => {
    // 160 MiB (32 parts), written straight into the LOCAL storage. The server copies it in parts; the page holds none
    // of it. Long enough to cancel mid-way, and more than twice COURIER_READ_BYTES: were the bytes to pass through the
    // page, the blob storage would show it. (It was 384 MiB: the same path, copied for twice as long.)
    const size = 160 * MIB;
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
    await page.goto(`${suite.server.url}/mount-explorer/local/large`);
    await option(page, 'large.bin').click();
    const before = await blobStorageBytes(context);
    const created = page.waitForResponse((response) => response.url().endsWith('/api/admin/jobs') && response.request().method() === 'POST');
    await copySelectionTo(page, ['s3', 'large']);
    const job = ((await (await created).json()) as { data: { id: string } }).data;
    // Cancelled once some of it is copied: the job's multipart upload is aborted, no half object is left.
    await expect.poll(async () => ((await (await api(`jobs/${job.id}`)).json()) as { data: { bytes: { done: number } } }).data.bytes.done, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Task manager' });
    await sheet.getByRole('button', { name: 'Cancel Copy to /s3/large/' }).first().click();
    await sheet.getByText('Cancelled', { exact: true }).first().waitFor();
    await expect.poll(() => suite.s3.pendingUploads(), { timeout: 20_000 }).toEqual([]);
    expect((await tree('/s3/large/')).size).toBe(0);
    await sheet.getByRole('button', { name: 'Close', exact: true }).click();
    // Retried, it goes on and ends byte-exact; the browser's blob storage never held the bytes.
    await page.getByRole('button', { name: /^Tasks/ }).click();
    await sheet.getByRole('button', { name: 'Retry Copy to /s3/large/' }).first().click();
    await sheet.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await taskEnds(page, 'Copy to /s3/large/', 'Completed', 240_000)).toContain('1 done');
    expect((await blobStorageBytes(context)) - before).toBeLessThan(COURIER_READ_BYTES);
    expect((await tree('/s3/large/')).get('large.bin')).toBe(digest.digest('hex'));
    expect(await suite.s3.pendingUploads()).toEqual([]);
  }, 300_000);

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
