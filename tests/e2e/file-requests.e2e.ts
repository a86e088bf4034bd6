import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
const MIB = 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'clipstash-request-'));
const fileOf = (name: string, bytes: Buffer) => {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return { path, bytes };
};
const small = fileOf('notes.txt', Buffer.from('Meeting notes\n'.repeat(50)));
/** Four parts of 5 MiB, under the request's 25 MB per file: the one that resumes after a reload. */
const resumed = fileOf('scan.bin', randomBytes(20 * MIB - 4321));
/** Over the per-file limit: refused in the page, never sent. */
const tooBig = fileOf('huge.bin', randomBytes(26 * MIB));
const PARTS = 4;
/** A second small file, for a request with room for one. */
const another = fileOf('minutes.txt', Buffer.from('Minutes\n'.repeat(20)));

const partNumberOf = (request: Request) => Number(/[?&]partNumber=(\d+)/i.exec(request.url())?.[1] ?? 0);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('file requests', () => {
  it('an admin asks for files into /local/inbox/; a visitor sends them (one refused, one resumed); the admin sees them', async () => {
    // The admin creates the request in the admin panel.
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.getByRole('link', { name: 'File requests' }).click();
    await admin.page.getByRole('button', { name: 'New request' }).click();
    const form = admin.page.getByRole('dialog', { name: 'New file request' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Scans for the audit');
    await form.getByLabel('Message for the sender').fill('Please send the scanned receipts.');
    await form.getByRole('textbox', { name: 'Folder' }).fill('/local/inbox/');
    // Over the server's maximum upload (100 MB), the form warns that senders are held to that.
    const largest = form.getByLabel('Largest file in MB (optional)');
    await largest.fill('477');
    await form.getByText("Files over the server's maximum upload of 100 MB are refused").waitFor();
    await largest.fill('25');
    await form.getByText("Files over the server's maximum upload of 100 MB are refused").waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Create request' }).click();
    const created = admin.page.getByRole('dialog', { name: 'File request created' });
    await created.waitFor();
    await created.getByRole('button', { name: 'Close' }).click();
    const row = admin.page.locator('tr[data-request-title="Scans for the audit"]');
    const slug = (await row.getAttribute('data-slug')) ?? '';
    expect(slug).not.toBe('');

    // A visitor without an account, on a phone-sized screen.
    const visitor = await newPerson(suite.browser, { viewport: { width: 360, height: 740 } });
    const { page, context } = visitor;
    const inits: string[] = [];
    const sent: number[] = [];
    const finished: number[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/multipart/init')) inits.push(request.postData() ?? '');
      if (partNumberOf(request) > 0) sent.push(partNumberOf(request));
    });
    context.on('requestfinished', (request) => partNumberOf(request) > 0 && finished.push(partNumberOf(request)));
    await page.goto(`${suite.server.url}/request/${slug}`);
    await page.getByRole('heading', { name: 'Scans for the audit' }).waitFor();
    // The menu (behind its toggle at this size) shows a visitor none of the operator's pages.
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual(['Home', 'Upload']);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText('Please send the scanned receipts.').isVisible()).toBe(true);
    // Sizes are joined by a no-break space (src/lib/format.ts).
    expect(await page.getByRole('list', { name: 'Limits' }).textContent()).toContain('Each file up to 25.0\u00a0MB');
    expect(await a11yInBothThemes(page, 'sender page')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // The file over the limit is refused in the page; the other goes.
    await page.getByLabel('Your name (optional)').fill('Ada');
    await page.getByTestId('request-input').setInputFiles([small.path, tooBig.path]);
    await expect.poll(() => page.getByRole('list', { name: 'Files not sent' }).textContent()).toContain('huge.bin is larger than 25.0\u00a0MB');
    await page.locator('[data-sent-file="notes.txt"]').waitFor();
    expect(inits.some((body) => body.includes('huge.bin'))).toBe(false);
    expect(inits.filter((body) => body.includes('notes.txt'))).toHaveLength(1);
    // The name stays in view (it goes with every file of this grant), and the sender is told when all is done.
    await page.getByText('Sending as Ada').waitFor();
    await page.getByRole('status').getByText('Done: your files have arrived.').waitFor();

    // A large file on a slow line, cut off by a reload, resumes from what storage holds once picked again.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 3 * MIB });
    const partsBefore = finished.length;
    await page.getByTestId('request-input').setInputFiles(resumed.path);
    await expect.poll(() => finished.length - partsBefore, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(1);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const doneBeforeReload = new Set(finished.slice(partsBefore));
    const sentBeforeReload = sent.length;
    expect(doneBeforeReload.size).toBeLessThan(PARTS);
    // Picked again with the big "Choose files" button (not the row's own): the upload resumes, none starts anew.
    const waiting = page.locator('li[data-file-name="scan.bin"][data-task-status="awaitingFile"]');
    await waiting.waitFor();
    await page.getByTestId('request-input').setInputFiles(resumed.path);
    await page.locator('[data-sent-file="scan.bin"]').waitFor({ timeout: 120_000 });
    expect(inits.filter((body) => body.includes('scan.bin'))).toHaveLength(1);
    const after = sent.slice(sentBeforeReload);
    expect(after.filter((part) => doneBeforeReload.has(part))).toEqual([]);
    expect(after.length).toBeLessThanOrEqual(PARTS - doneBeforeReload.size);
    expect(await page.locator('[data-sent-file]').count()).toBe(2);
    expect(visitor.errors).toEqual([]);
    await context.close();

    // The admin sees both in the request, with who sent them, and in the explorer.
    await admin.page.reload();
    await row.getByRole('button', { name: /^2 files/ }).click();
    const received = admin.page.getByRole('list', { name: 'Files received' });
    await received.locator('[data-received-file="scan.bin"]').waitFor();
    expect(await received.locator('[data-received-file="notes.txt"]').textContent()).toContain('Ada');
    await admin.page.keyboard.press('Escape');
    await admin.page.goto(`${suite.server.url}/mount-explorer/local/inbox`);
    const items = admin.page.getByRole('listbox', { name: 'Files and folders' });
    await items.getByText('scan.bin').waitFor();
    await items.getByText('notes.txt').waitFor();
    const token = await admin.page.evaluate(() => localStorage.getItem('admin_token'));
    const stored = await admin.page.request.get(`${suite.server.url}/api/admin/fs/download?path=${encodeURIComponent('/local/inbox/scan.bin')}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(sha256(await stored.body())).toBe(sha256(resumed.bytes));
    await admin.context.close();
  }, 240_000);

  it('refuses in the page the files past the number a request still takes', async () => {
    const token = await adminToken(suite.server.url);
    const answer = await fetch(`${suite.server.url}/api/file-requests`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      // Into the folder that holds the first test's notes.txt: this one is stored under a free name.
      body: JSON.stringify({ title: 'Just one file', target: { kind: 'folder', path: '/local/inbox/' }, max_files: 1 }),
    });
    const { slug } = ((await answer.json()) as { data: { slug: string } }).data;

    const { page, context } = await newPerson(suite.browser);
    const inits: string[] = [];
    context.on('request', (request) => request.url().includes('/multipart/init') && inits.push(request.postData() ?? ''));
    await page.goto(`${suite.server.url}/request/${slug}`);
    await page.getByRole('heading', { name: 'Just one file' }).waitFor();
    // No per-file limit of its own: the server's maximum upload is the one the sender is told.
    expect(await page.getByRole('list', { name: 'Limits' }).textContent()).toContain('Each file up to 100\u00a0MB');
    await page.getByTestId('request-input').setInputFiles([small.path, another.path]);
    await expect
      .poll(() => page.getByRole('list', { name: 'Files not sent' }).textContent())
      .toContain('minutes.txt was not sent: the request takes no more files (its limit is 1).');
    // The request is full now: the page says so, and still says which picked file was not sent. The list shows
    // the file under the name it was sent with.
    await page.getByText('No more files can be sent').waitFor();
    expect(await page.getByRole('list', { name: 'Files not sent' }).textContent()).toContain('minutes.txt was not sent');
    await page.locator('[data-sent-file="notes.txt"]').waitFor();
    expect(inits.some((body) => body.includes('minutes.txt'))).toBe(false);
    await context.close();

    // The admin's list at 1400 px: the title and its "Full" badge in view, the count a button to the files, each
    // file a link to where it landed, with the name it was sent as.
    const admin = await newPerson(suite.browser, { viewport: { width: 1400, height: 900 } });
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.getByRole('link', { name: 'File requests' }).click();
    const row = admin.page.locator(`tr[data-slug="${slug}"]`);
    const badge = row.getByText('Full', { exact: true });
    await badge.waitFor();
    const cell = row.locator('td').first();
    const [badgeBox, cellBox] = [await badge.boundingBox(), await cell.boundingBox()];
    expect(badgeBox && cellBox && badgeBox.x + badgeBox.width <= cellBox.x + cellBox.width).toBe(true);
    await row.getByRole('button', { name: /^1 of 1 files/ }).click();
    const received = admin.page.getByRole('list', { name: 'Files received' });
    const file = received.locator('[data-received-file="notes (1).txt"]');
    expect(await file.textContent()).toContain('(sent as notes.txt)');
    await file.getByRole('link', { name: 'notes (1).txt' }).click();
    await admin.page.waitForURL(/\/mount-explorer\/local\/inbox\?preview=notes\+%281%29\.txt$/);
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  });
});
