import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, holdAllButFirst, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';
import { zipDigests } from './zip';

const suite = useSuite();
const MIB = 1024 * 1024;
/** The folder's files: three read fine, `broken.bin`'s read fails (its download answers 500). */
const files: Record<string, Buffer> = {
  'one.bin': randomBytes(300_000),
  'two.txt': Buffer.from('two\n'.repeat(5000)),
  'three.bin': randomBytes(3 * MIB + 17),
  'broken.bin': randomBytes(1000),
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  const token = await adminToken(suite.server.url);
  for (const [name, bytes] of Object.entries(files)) {
    const form = new FormData();
    form.append('path', '/local/zip/');
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const answer = await fetch(`${suite.server.url}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(answer.status).toBe(201);
  }
}, 60_000);

/**
 * A browser without the File System Access API, signed in, on the folder, controlled by the service worker; every
 * file of the folder selected.
 */
async function openWithoutFileSystemAccess() {
  const { page, context, errors } = await newPerson(suite.browser, { acceptDownloads: true });
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await loginAsAdmin(page, suite.server.url);
  await page.goto(`${suite.server.url}/mount-explorer/local/zip`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
  expect(await page.evaluate(() => 'showSaveFilePicker' in window)).toBe(false);
  await page.getByRole('listbox', { name: 'Files and folders' }).locator('[role="option"]').first().click();
  await page.keyboard.press('Control+A');
  await page.getByText('4 selected').waitFor();
  return { page, context, errors };
}

const taskRow = (page: Page) => page.getByRole('dialog', { name: 'Task manager' }).getByRole('listitem').filter({ hasText: 'zip.zip' }).first();

describe('zip download without the File System Access API', () => {
  it('streams through the service worker as a download: entries byte-exact, the unreadable file listed and skipped', async () => {
    const { page, context, errors } = await openWithoutFileSystemAccess();
    await context.route(/\/fs\/download\?path=%2Flocal%2Fzip%2Fbroken\.bin/, (route) => route.fulfill({ status: 500, body: 'no' }));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as zip' }).click()]);
    // The service worker answered it (no blob: URL of a zip made whole in the page).
    expect(download.url()).toMatch(new RegExp(`^${suite.server.url}/streamed-download/[0-9a-f-]+/zip\\.zip$`));
    expect(download.suggestedFilename()).toBe('zip.zip');
    const saved = await download.path();
    expect(await download.failure()).toBeNull();
    expect(zipDigests(readFileSync(saved))).toEqual({
      'one.bin': sha256(files['one.bin']!),
      'two.txt': sha256(files['two.txt']!),
      'three.bin': sha256(files['three.bin']!),
    });

    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = taskRow(page);
    await row.getByText('Partly done', { exact: true }).waitFor();
    await row.getByText('3 done, 0 skipped, 1 failed').waitFor();
    await expect.poll(() => row.getByRole('list', { name: 'Failed items' }).textContent()).toContain('/local/zip/broken.bin');
    expect(errors).toEqual([]);
  }, 120_000);

  it('cancel stops the zip and fails the download; the progress moved before', async () => {
    const { page, context } = await openWithoutFileSystemAccess();
    // One file's read goes through, the others wait for the cancel, which so lands mid-zip.
    const release = await holdAllButFirst(context, /\/fs\/download\?path=/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as zip' }).click()]);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = taskRow(page);
    await row.getByText(/^\d+ done, 0 skipped, 0 failed$/).waitFor();
    await expect.poll(async () => Number(/(\d+) done/.exec((await row.textContent()) ?? '')?.[1] ?? 0), { timeout: 20_000 }).toBeGreaterThan(0);
    await row.getByRole('button', { name: 'Cancel zip.zip' }).click();
    release();
    await row.getByText('Cancelled', { exact: true }).waitFor();
    expect(await download.failure()).not.toBeNull();
  }, 120_000);
});
