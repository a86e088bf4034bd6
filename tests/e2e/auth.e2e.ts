import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

describe('admin login', () => {
  it('checks the fields, refuses a wrong password, and lets the right one in', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/admin`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Please enter username and password');

    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Wrong username or password').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();

    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toMatch(/^[\w-]{40,}$/);
    expect(await page.title()).toBe('Admin panel - Clipstash');

    // The session survives a reload, and the module title follows the module.
    await page.reload();
    await page.getByRole('link', { name: 'Key management' }).click();
    await page.getByRole('heading', { name: 'Key management' }).waitFor();
    expect(await page.title()).toBe('Key management - Clipstash');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in to Clipstash' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for the API key in key mode', async () => {
    const { page, context } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/admin`);
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Please enter API key').waitFor();
    await page.getByRole('textbox', { name: 'API key' }).fill('no-such-key-123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('API key invalid or expired').waitFor();
    await context.close();
  });

  it('opens the login prompt when a stored admin session has expired', async () => {
    const { page, context } = await newPerson(suite.browser);
    // Stored from a page of the origin that runs no app: an app still starting up there could check the token
    // first, find it refused and forget it before the navigation below.
    await page.goto(`${suite.server.url}/api/health`);
    await page.evaluate(() => localStorage.setItem('admin_token', 'a-token-the-server-never-issued'));
    await page.goto(`${suite.server.url}/admin/settings`);
    const dialog = page.getByRole('dialog', { name: 'Please log in again' });
    await dialog.waitFor();
    await dialog.getByText('Admin session expired, please log in again').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    await dialog.getByLabel('Username').fill('admin');
    await dialog.getByLabel('Password').fill(ADMIN_PASSWORD);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'System settings' }).waitFor();
    await context.close();
  });

  it('a logged-in admin reaches every module from the menu', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const menu = page.getByRole('navigation', { name: 'Admin panel' });
    const names = await menu.getByRole('link').allTextContents();
    expect(names).toEqual([
      'Dashboard',
      'Text management',
      'File management',
      'File requests',
      'Tasks',
      'Storage config',
      'Mount management',
      'Key management',
      'Webhooks',
      'System settings',
    ]);
    await context.close();
  });
});
