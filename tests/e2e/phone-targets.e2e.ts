/**
 * On a phone (touch, 390 px), the controls the second walk found too small are at least 44 px on a side: a file
 * request's "Choose files", the expense form's "Choose receipts", and the task panel's remove button and its
 * parts-per-upload select.
 */
import { describe, expect, it } from 'vitest';
import { adminToken, loginAsAdmin, newPerson, smallTargets } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

const atLeast44 = async (box: { width: number; height: number } | null) => {
  expect(box?.width).toBeGreaterThanOrEqual(44);
  expect(box?.height).toBeGreaterThanOrEqual(44);
};

describe('touch targets on a phone', () => {
  it("a file request's page offers nothing smaller than 44 px", async () => {
    const answer = await fetch(`${suite.server.url}/api/file-requests`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await adminToken(suite.server.url)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Phone request', target: { kind: 'folder', path: '/local/phone/' } }),
    });
    const { slug } = ((await answer.json()) as { data: { slug: string } }).data;
    const { page, context } = await newPerson(suite.browser, PHONE);
    await page.goto(`${suite.server.url}/request/${slug}`);
    await page.getByRole('heading', { name: 'Phone request' }).waitFor();
    await atLeast44(await page.locator('button', { hasText: 'Choose files' }).boundingBox());
    expect(await smallTargets(page)).toEqual([]);
    await context.close();
  });

  it('the new claim form and the task panel offer nothing smaller than 44 px', async () => {
    const { page, context } = await newPerson(suite.browser, PHONE);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/expense/new`);
    await page.getByRole('heading', { name: 'New expense claim', level: 1 }).waitFor();
    await atLeast44(await page.locator('button', { hasText: 'Choose receipts' }).boundingBox());

    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await page.getByLabel('Files to upload').setInputFiles({ name: 'phone.txt', mimeType: 'text/plain', buffer: Buffer.from('from a phone') });
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Task manager' });
    const row = sheet.getByRole('listitem').filter({ hasText: 'phone.txt' }).first();
    await row.getByText('Completed', { exact: true }).waitFor();
    for (const button of await row.getByRole('button').all()) await atLeast44(await button.boundingBox());
    await atLeast44(await sheet.getByLabel('Parts at once per upload').boundingBox());
    await context.close();
  });
});
