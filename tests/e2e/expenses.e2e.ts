import { readFile } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

/** A 2×2 red PNG, whole and valid (the server checks a receipt's bytes; the page shows it as a picture). */
function redPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  const row = [0, 255, 0, 0, 255, 0, 0]; // no filter, two red pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([...row, ...row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF with one line of text, written here so that its cross-reference offsets are right. */
function onePagePdf(text: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 20 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 100 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A key with only the expense permission, made through the admin API. */
async function expenseKey(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/admin/api-keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await adminToken(baseUrl)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'travel-key', expense_permission: true }),
  });
  if (answer.status !== 201) throw new Error(`creating the key answered ${answer.status}`);
  return ((await answer.json()) as { data: { key: string } }).data.key;
}

async function loginWithKey(page: Page, baseUrl: string, key: string) {
  await page.goto(`${baseUrl}/admin`);
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.getByRole('textbox', { name: 'API key' }).fill(key);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForFunction(() => localStorage.getItem('api_key') !== null);
}

/**
 * Orders the claim page's first load against its two receipt uploads: the claim is read before any receipt is
 * stored, and its answer reaches the page only after both are, so the page can learn of those receipts from its
 * upload tasks alone. The returned function waits until that has happened.
 */
async function holdClaimUntilReceiptsStored(page: Page): Promise<() => Promise<void>> {
  const receipts = /\/api\/expenses\/[^/]+\/receipts$/;
  const claim = /\/api\/expenses\/(?!new$)[^/?]+$/;
  let claimRead!: () => void;
  const read = new Promise<void>((resolve) => (claimRead = resolve));
  let answered!: () => void;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  const stored: Promise<unknown>[] = [];
  await page.route(receipts, async (route) => {
    await read;
    const response = route.fetch();
    stored.push(response);
    await route.fulfill({ response: await response });
  });
  await page.route(claim, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    await page.unroute(claim);
    const response = await route.fetch();
    claimRead();
    await expect.poll(() => stored.length, { timeout: 30_000 }).toBe(2);
    await Promise.all(stored);
    // Nothing on the page shows the tasks while the claim loads. The worker's answer reaches them in milliseconds:
    // a second leaves it far behind, and were it later still, the page would have to show the receipts all the same.
    await page.waitForTimeout(1000);
    await route.fulfill({ response });
    answered();
  });
  return async () => {
    await answer;
    await page.unroute(receipts);
  };
}

const statusOf = (page: Page) => page.locator('article header [data-status]').getAttribute('data-status');
const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' }).locator('li');

describe('expense claims', () => {
  it('a key files a claim with two receipts; the admin rejects it with a note; the key fixes it; the admin approves', async () => {
    const key = await expenseKey(suite.server.url);
    const owner = await newPerson(suite.browser);
    const admin = await newPerson(suite.browser);
    const report: string[] = [];
    await loginWithKey(owner.page, suite.server.url, key);

    // An expense-only key lands where its work is, and its menu offers nothing it cannot open.
    await owner.page.waitForURL(/\/expense$/);
    await owner.page.getByText('No expense claims yet').waitFor();
    const menu = owner.page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    expect(await menu.allTextContents()).toEqual(['Home', 'Expense claims']);

    // The form: every field is checked before anything is sent.
    await owner.page.getByRole('link', { name: 'New claim' }).click();
    await owner.page.getByRole('heading', { name: 'New expense claim', level: 1 }).waitFor();
    await expect(owner.page.getByLabel('Currency').inputValue()).resolves.toBe('USD');
    await owner.page.getByRole('button', { name: 'Save as draft' }).click();
    await owner.page.getByText('This field is required').first().waitFor();
    report.push(...(await a11yInBothThemes(owner.page, 'new claim')));
    await owner.page.getByLabel('Title').fill('Taxi to the airport');
    await owner.page.getByLabel('Currency').selectOption('EUR');
    await owner.page.getByLabel('Amount').fill('42.505');
    await owner.page.getByLabel('Category').selectOption('travel');
    await owner.page.getByLabel('Description').fill('Early flight to the conference');
    await owner.page.getByRole('button', { name: 'Save as draft' }).click();
    await owner.page.getByText('This currency has fewer decimals').waitFor();
    await owner.page.getByLabel('Amount').fill('42.50');
    await owner.page.getByTestId('receipt-input').setInputFiles([
      { name: 'taxi.png', mimeType: 'image/png', buffer: redPng() },
      { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Taxi 42.50 EUR') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a receipt') },
    ]);
    await owner.page.getByText('notes.txt is not an image or a PDF').waitFor();
    expect(await owner.page.getByRole('list', { name: 'Chosen receipts' }).locator('li').count()).toBe(2);
    const uploadsFinishWhileTheClaimLoads = await holdClaimUntilReceiptsStored(owner.page);
    await owner.page.getByRole('button', { name: 'Save as draft' }).click();

    // The claim's page: the receipts upload as tasks, then show inline, even those stored while the claim was loading.
    // The form's own address is /expense/new: wait for the claim's.
    await owner.page.waitForURL(/\/expense\/(?!new$)[^/]+$/);
    await uploadsFinishWhileTheClaimLoads();
    const claimUrl = owner.page.url();
    await owner.page.getByRole('heading', { name: 'Taxi to the airport', level: 1 }).waitFor();
    const picture = owner.page.getByRole('img', { name: 'Receipt taxi.png' });
    await picture.waitFor();
    await owner.page.waitForFunction(() => [...document.images].some((image) => image.alt === 'Receipt taxi.png' && image.complete && image.naturalWidth === 2));
    // Chromium's PDF viewer is slow to start on a busy machine: a full run once took more than 30 s.
    await owner.page.locator('iframe[title="PDF receipt invoice.pdf"]').waitFor({ timeout: 90_000 });
    expect(await statusOf(owner.page)).toBe('draft');
    await owner.page.getByText('€42.50').first().waitFor();
    // The day spent is written as the filing date is: one date style per language.
    const dateOf = (label: string) => owner.page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd').textContent();
    expect(await dateOf('Date spent')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(await dateOf('Filed')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, /);
    report.push(...(await a11yInBothThemes(owner.page, 'draft claim')));
    await owner.page.getByRole('button', { name: 'Submit for review' }).click();
    await owner.page.getByText('Claim submitted for review').first().waitFor();
    expect(await statusOf(owner.page)).toBe('submitted');
    expect(await owner.page.getByRole('button', { name: 'Edit' }).count()).toBe(0);

    // The admin sees it in the list with its owner and the totals, starts the review and rejects it with a note.
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.goto(`${suite.server.url}/expense`);
    const row = admin.page.locator('tr[data-claim-title="Taxi to the airport"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('travel-key');
    await admin.page.getByRole('list', { name: 'Totals' }).getByText('€42.50').waitFor();
    report.push(...(await a11yInBothThemes(admin.page, 'claims list')));
    await row.getByRole('link', { name: 'Taxi to the airport' }).click();
    await admin.page.getByRole('button', { name: 'Start review' }).click();
    await admin.page.getByRole('button', { name: 'Reject' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Reject claim' });
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('Please say why the claim is rejected').waitFor();
    report.push(...(await a11yInBothThemes(admin.page, 'reject dialog')));
    await dialog.getByLabel('Reason').fill('The taxi receipt does not show the date.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await statusOf(admin.page)).toBe('rejected');

    // The key reads the note, edits the claim and submits it again.
    await owner.page.goto(claimUrl);
    await owner.page.getByRole('note').getByText('The taxi receipt does not show the date.').waitFor();
    await owner.page.getByRole('button', { name: 'Edit' }).click();
    await owner.page.getByLabel('Amount').fill('39');
    await owner.page.getByRole('button', { name: 'Save changes' }).click();
    await owner.page.getByText('Claim saved').first().waitFor();
    await owner.page.getByText('€39.00').first().waitFor();
    await owner.page.getByRole('button', { name: 'Submit for review' }).click();
    await owner.page.getByText('Claim submitted for review').first().waitFor();

    // The admin approves straight from "submitted": nothing is left to do, and the timeline holds every transition
    // in order, the review step recorded before the approval.
    await admin.page.reload();
    await admin.page.getByRole('button', { name: 'Start review' }).waitFor();
    await admin.page.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByText('Claim approved').first().waitFor();
    expect(await statusOf(admin.page)).toBe('approved');
    expect(await admin.page.getByRole('group', { name: 'Claim actions' }).count()).toBe(0);
    const steps = timeline(admin.page);
    await expect.poll(() => steps.count()).toBe(6);
    const order = await steps.evaluateAll((items) => items.map((item) => `${item.getAttribute('data-event')}→${item.getAttribute('data-to-status')}`));
    expect(order).toEqual(['submit→submitted', 'process→processing', 'reject→rejected', 'submit→submitted', 'process→processing', 'approve→approved']);
    expect(await steps.nth(2).textContent()).toContain('The taxi receipt does not show the date.');
    report.push(...(await a11yInBothThemes(admin.page, 'approved claim')));

    // The admin exports the approved claims as CSV: the claim is there, its amount in major units.
    await admin.page.goto(`${suite.server.url}/expense?status=approved`);
    await admin.page.getByRole('button', { name: 'Export CSV' }).waitFor();
    const [download] = await Promise.all([admin.page.waitForEvent('download'), admin.page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('expenses.csv');
    const file = await readFile(await download.path(), 'utf8');
    // The byte order mark first, so that Excel reads the file as UTF-8.
    expect(file.startsWith('\uFEFF')).toBe(true);
    const csv = file.slice(1);
    expect(csv.split('\r\n')[0]).toMatch(/^[a-z_]+(,[a-z_]+)+$/);
    expect(csv).toMatch(/Taxi to the airport.*39\.00,EUR.*approved/);
    report.push(...(await a11yInBothThemes(admin.page, 'review queue')));
    await admin.page.goto(claimUrl);

    // At 360 px the claim still fits: nothing runs off the side.
    await admin.page.setViewportSize({ width: 360, height: 740 });
    await admin.page.reload();
    await admin.page.getByRole('heading', { name: 'Taxi to the airport', level: 1 }).waitFor();
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    report.push(...(await a11yInBothThemes(admin.page, 'approved claim at 360 px')));

    expect(report).toEqual([]);
    expect(owner.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await Promise.all([owner.context.close(), admin.context.close()]);
  }, 240_000);
});
