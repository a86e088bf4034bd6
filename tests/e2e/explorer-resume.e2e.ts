import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
const MIB = 1024 * 1024;
/** Six parts of 5 MiB into the LOCAL mount. */
const bytes = randomBytes(30 * MIB - 1234);
const file = join(mkdtempSync(join(tmpdir(), 'clipstash-resume-')), 'thirty.bin');
writeFileSync(file, bytes);
const PARTS = 6;

const partNumberOf = (request: Request) => Number(/[?&]partNumber=(\d+)/i.exec(request.url())?.[1] ?? 0);

describe('an upload into a mount', () => {
  it('resumes after a reload from its first missing part, never sending a finished part again', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await page.getByRole('listbox', { name: 'Files and folders' }).or(page.getByText('This folder is empty')).first().waitFor();
    const sent: number[] = [];
    const finished: number[] = [];
    context.on('request', (request) => partNumberOf(request) > 0 && sent.push(partNumberOf(request)));
    context.on('requestfinished', (request) => partNumberOf(request) > 0 && finished.push(partNumberOf(request)));
    // A slow line, so that the reload lands in the middle.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 3 * MIB });
    await page.getByLabel('Files to upload').setInputFiles(file);
    await expect.poll(() => finished.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const doneBeforeReload = new Set(finished);
    const sentBeforeReload = sent.length;
    expect(doneBeforeReload.size).toBeLessThan(PARTS);

    // After the reload the task waits for its file; picked again, it goes on.
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = page.locator('li[data-file-name="thirty.bin"][data-task-status="awaitingFile"]');
    await row.getByTestId('resume-thirty.bin').setInputFiles(file);
    await page.locator('li[data-file-name="thirty.bin"][data-task-status="completed"]').waitFor({ timeout: 120_000 });

    const after = sent.slice(sentBeforeReload);
    expect(after.filter((part) => doneBeforeReload.has(part))).toEqual([]);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThanOrEqual(PARTS - doneBeforeReload.size);
    const token = await page.evaluate(() => localStorage.getItem('admin_token'));
    const stored = await page.request.get(`${suite.server.url}/api/admin/fs/download?path=${encodeURIComponent('/local/thirty.bin')}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(stored.status()).toBe(200);
    expect(createHash('sha256').update(await stored.body()).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    await context.close();
  }, 180_000);
});
