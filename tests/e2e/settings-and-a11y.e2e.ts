import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, launchBrowser, loginAsAdmin, newPerson, seriousA11yViolations, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('system settings', () => {
  it('saves the max upload size in KB and the WebDAV mode, and refuses 0', async () => {
    const { page, context } = await newPerson(browser);
    await loginAsAdmin(page, server.url);
    await page.getByRole('link', { name: 'System settings' }).click();
    const size = page.getByRole('spinbutton', { name: 'Max upload size' });
    await expect(size.inputValue()).resolves.toBe('100');

    await size.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Upload max size must be greater than 0').waitFor();

    await size.fill('512');
    await page.getByRole('combobox', { name: 'Unit' }).selectOption('KB');
    await page.getByLabel('WebDAV upload mode').selectOption('multipart');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').first().waitFor();

    const fromServer = await page.evaluate(async () => (await fetch('/api/system/max-upload-size')).json());
    expect(fromServer.data.max_upload_size).toBe(0.5);
    await page.reload();
    await expect(page.getByRole('spinbutton', { name: 'Max upload size' }).inputValue()).resolves.toBe('512');
    await expect(page.getByRole('combobox', { name: 'Unit' }).inputValue()).resolves.toBe('KB');
    await expect(page.getByLabel('WebDAV upload mode').inputValue()).resolves.toBe('multipart');
    await context.close();
  });

  it('changes the admin password with the spec rules, then asks to log in again', async () => {
    const { page, context } = await newPerson(browser);
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/admin/settings`);
    const change = page.getByRole('button', { name: 'Change login details' });
    await change.click();
    await page.getByText('Please enter the current password').waitFor();
    await page.getByText('Enter a new username or a new password').waitFor();

    await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await page.getByLabel('New password').fill(ADMIN_PASSWORD);
    await change.click();
    await page.getByText('The new password must differ from the current one').waitFor();

    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password').fill('a-brand-new-password');
    await change.click();
    await page.getByText('Current password verification failed').waitFor();

    await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await change.click();
    await page.getByRole('heading', { name: 'Log in to Clipstash' }).waitFor();
    await loginAsAdmin(page, server.url, 'a-brand-new-password');

    // Put it back for the other tests of this file.
    await page.goto(`${server.url}/admin/settings`);
    await page.getByLabel('Current password').fill('a-brand-new-password');
    await page.getByLabel('New password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Change login details' }).click();
    await page.getByRole('heading', { name: 'Log in to Clipstash' }).waitFor();
    await context.close();
  });
});

describe('accessibility (axe-core: no serious or critical violation)', () => {
  const publicRoutes = ['/', '/upload', '/admin', '/paste/abc', '/file/abc', '/mount-explorer', '/expense'];
  const adminRoutes = ['/admin/dashboard', '/admin/key-management', '/admin/settings', '/admin/storage-config'];

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`every route in the ${colorScheme} theme`, async () => {
      const { page, context } = await newPerson(browser, { colorScheme });
      const report: string[] = [];
      for (const route of publicRoutes) {
        await page.goto(`${server.url}${route}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        report.push(...(await seriousA11yViolations(page)).map((v) => `${route} ${v}`));
      }
      await loginAsAdmin(page, server.url);
      for (const route of adminRoutes) {
        await page.goto(`${server.url}${route}`);
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        report.push(...(await seriousA11yViolations(page)).map((v) => `${route} ${v}`));
      }
      await page.goto(`${server.url}/admin/key-management`);
      await page.getByRole('button', { name: 'Create key' }).first().click();
      await page.getByRole('dialog').waitFor();
      report.push(...(await seriousA11yViolations(page)).map((v) => `create-key dialog ${v}`));
      expect(report).toEqual([]);
      await context.close();
    });
  }
});
