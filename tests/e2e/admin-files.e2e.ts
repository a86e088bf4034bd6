import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite({}, { s3: true });

async function uploadByApi(page: Page, name: string, text: string) {
  const response = await page.request.post(`${suite.server.url}/api/upload`, {
    multipart: { file: { name, mimeType: 'text/plain', buffer: Buffer.from(text) } },
    headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('admin_token'))}` },
  });
  expect(response.status()).toBe(201);
}

describe('storage configuration', () => {
  it('an admin adds an S3-compatible storage, tests it, and makes it the default for uploads', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.getByRole('link', { name: 'Storage config' }).click();
    await page.getByRole('button', { name: 'Add storage' }).click();
    const form = page.getByRole('dialog', { name: 'Add storage' });
    await form.getByRole('button', { name: 'Add storage' }).click();
    await form.getByText('Please enter a name').waitFor();
    await form.getByLabel('Name', { exact: true }).fill('Test bucket');
    await form.getByLabel('Provider').selectOption('MinIO');
    await form.getByLabel('Endpoint URL').fill(suite.s3.endpoint);
    await form.getByLabel('Bucket').fill(suite.s3.bucket);
    await form.getByLabel('Access key ID').fill(suite.s3.accessKeyId);
    await form.getByLabel('Secret access key').fill(suite.s3.secretAccessKey);
    await form.getByLabel('API keys may upload here').check();
    await form.getByRole('button', { name: 'Add storage' }).click();
    await page.getByText('Storage saved').first().waitFor();

    const card = page.locator('li[data-config-name="Test bucket"]');
    await card.getByRole('button', { name: 'Test', exact: true }).click();
    const report = page.getByRole('dialog', { name: 'Test of Test bucket' });
    await report.getByText('Everything works.').waitFor();
    expect(await report.locator('[data-ok="true"]').count()).toBe(7);
    await report.getByRole('button', { name: 'Close' }).click();

    await card.getByRole('button', { name: 'Make default' }).click();
    await card.getByText('Default').waitFor();
    // The secret never comes back to the page.
    const listed = await page.evaluate(async () => {
      const token = localStorage.getItem('admin_token');
      return (await fetch('/api/s3-configs', { headers: { Authorization: `Bearer ${token}` } })).text();
    });
    expect(listed).toContain('"secret_access_key":"********"');
    expect(listed).not.toContain(`"secret_access_key":"${suite.s3.secretAccessKey}"`);

    await page.goto(`${suite.server.url}/upload`);
    await expect(page.getByLabel('Storage').locator('option:checked').textContent()).resolves.toBe('Test bucket (default)');

    // A storage in use cannot be deleted: the admin is told why.
    await uploadByApi(page, 'kept.txt', 'in the bucket');
    await page.goto(`${suite.server.url}/admin/storage-config`);
    await page.locator('li[data-config-name="Test bucket"]').getByRole('button', { name: 'Delete Test bucket' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.locator('[data-tone="error"]').first().waitFor();
    await page.locator('li[data-config-name="Test bucket"]').waitFor();
    await context.close();
  });
});

describe('file management', () => {
  it('lists files, edits one, deletes one, then the rest in a batch; the dashboard counts follow', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    for (const name of ['alpha.txt', 'beta.txt', 'gamma.txt']) await uploadByApi(page, name, `contents of ${name}`);

    await page.goto(`${suite.server.url}/admin/dashboard`);
    const uploads = page.locator('li', { hasText: 'File uploads' });
    const before = Number(await uploads.locator('span').first().textContent());
    expect(before).toBeGreaterThanOrEqual(3);

    await page.goto(`${suite.server.url}/admin/file-management`);
    const row = (name: string) => page.locator('tr', { hasText: name });
    await row('alpha.txt').waitFor();
    expect(await row('alpha.txt').textContent()).toContain('text/plain');

    await row('alpha.txt').getByRole('button', { name: 'Edit alpha.txt' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit file share' });
    await edit.getByLabel('Remark').fill('edited');
    await edit.getByLabel('Max views').fill('5');
    await edit.getByLabel('Password').selectOption('set');
    await edit.getByLabel('New password').fill('pw');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Share updated').first().waitFor();
    await expect.poll(() => row('alpha.txt').textContent()).toContain('5 left');
    expect((await row('alpha.txt').locator('td[data-label="Password"]').innerText()).trim()).toBe('Yes');

    await row('gamma.txt').getByRole('button', { name: 'Delete gamma.txt' }).click();
    const deleteOne = page.getByRole('alertdialog', { name: 'Delete this file?' });
    await deleteOne.getByText('The file is removed from storage and its link stops working.', { exact: false }).waitFor();
    await deleteOne.getByRole('button', { name: 'Delete' }).click();
    await row('gamma.txt').waitFor({ state: 'detached' });

    await page.getByLabel('Select alpha.txt').check();
    await page.getByLabel('Select beta.txt').check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    const deleteTwo = page.getByRole('alertdialog', { name: 'Delete 2 files?' });
    await deleteTwo.getByText('The files are removed from storage and their links stop working.', { exact: false }).waitFor();
    await deleteTwo.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 deleted').first().waitFor();
    await row('beta.txt').waitFor({ state: 'detached' });

    await page.goto(`${suite.server.url}/admin/dashboard`);
    // The dashboard shows its last answer at once and the fresh one when it comes: a loaded machine takes seconds.
    await expect.poll(async () => Number(await uploads.locator('span').first().textContent()), { timeout: 15_000 }).toBe(before - 3);
    await context.close();
  });
});
