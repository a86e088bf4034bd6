import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { shareXUploaders } from '../../src/pages/admin/key-management/sharex';
import { loginAsAdmin, newPerson, seriousA11yViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

describe('API keys', () => {
  it('an admin creates a text key; its holder logs in to the user panel; deleting it elsewhere ends that session', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    await admin.page.getByRole('link', { name: 'Key management' }).click();
    await admin.page.getByText('No API keys yet').waitFor();

    // Create: the form checks its fields first.
    await admin.page.getByRole('button', { name: 'Create key' }).first().click();
    const form = admin.page.getByRole('dialog', { name: 'Create API key' });
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.getByText('Please enter a key name').waitFor();
    await form.getByLabel('Name').fill('writer');
    await form.getByLabel('Choose the key myself').check();
    await form.getByLabel('Custom key').fill('bad key!');
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.getByText('The key may contain only letters, digits, underscore and hyphen').waitFor();
    await form.getByLabel('Choose the key myself').uncheck();
    await form.getByLabel('Expires').selectOption('custom');
    await form.getByLabel('Days until it expires').fill('3');
    await expect(form.getByLabel('Text: create and manage pastes').isChecked()).resolves.toBe(true);
    await form.getByRole('button', { name: 'Create key' }).click();

    // The whole key is shown once, here; the list shows its first characters and offers no copy of it.
    const created = admin.page.getByRole('dialog', { name: 'API key created' });
    const key = (await created.getByTestId('created-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^[A-Za-z0-9]{24}$/);
    await created.getByText('Copy the key now: it will not be shown again.').waitFor();
    await created.getByRole('button', { name: 'Done' }).click();
    const row = admin.page.locator('tr[data-key-name="writer"]');
    await row.waitFor();
    expect(await row.textContent()).toContain(`${key.slice(0, 6)}…`);
    expect(await row.textContent()).not.toContain(key);
    expect(await row.textContent()).toContain('Text');
    expect(await row.getByRole('button').count()).toBe(2);
    await row.getByRole('button', { name: 'Edit key writer' }).waitFor();
    await row.getByRole('button', { name: 'Delete key writer' }).waitFor();

    // The holder logs in with the key and sees the user panel with only what the key allows.
    const holder = await newPerson(suite.browser);
    await holder.page.goto(`${suite.server.url}/admin`);
    await holder.page.getByRole('tab', { name: 'API key' }).click();
    await holder.page.getByRole('textbox', { name: 'API key' }).fill(key);
    await holder.page.getByRole('button', { name: 'Log in' }).click();
    await holder.page.getByRole('heading', { name: 'User panel' }).waitFor();
    const menu = holder.page.getByRole('navigation', { name: 'User panel' });
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Text management']);
    await holder.page.goto(`${suite.server.url}/admin/key-management`);
    await holder.page.getByText("You don't have permission to access this feature. Please contact the administrator.").waitFor();
    expect(await holder.page.evaluate(() => JSON.parse(localStorage.getItem('api_key_permissions') ?? 'null'))).toEqual({
      text: true,
      file: false,
      mount: false,
      expense: false,
    });
    // The main menu offers only what the key opens: no upload, mounts or expense claims for a text key.
    const holderMain = holder.page.getByRole('navigation', { name: 'Main' });
    expect(await holderMain.getByRole('link').allTextContents()).toEqual(['Home', 'Admin']);

    // The admin deletes the key, confirming first.
    await row.getByRole('button', { name: 'Delete key writer' }).click();
    const confirm = admin.page.getByRole('alertdialog', { name: 'Delete API key?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await admin.page.getByText('No API keys yet').waitFor();

    // The holder's next action is refused: the prompt opens and the key is forgotten.
    await menu.getByRole('link', { name: 'Text management' }).click();
    const prompt = holder.page.getByRole('dialog', { name: 'Please log in again' });
    await prompt.getByText('API key invalid or expired').waitFor();
    expect(await holder.page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
    expect(holder.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await Promise.all([admin.context.close(), holder.context.close()]);
  });

  it('edits a key: new name, permissions and base path', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/key-management`);
    await page.getByRole('button', { name: 'Create key' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill('uploader');
    await form.getByLabel('Expires').selectOption('never');
    await form.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'API key created' }).getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Edit key uploader' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit API key' });
    await edit.getByLabel('Name').fill('uploader-2');
    await edit.getByLabel('Files: upload and manage file shares').check();
    await edit.getByLabel('Base path').fill('/team/../etc');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('Enter an absolute path such as / or /team/docs').waitFor();
    await edit.getByLabel('Base path').fill('/team');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('API key updated').first().waitFor();
    const row = page.locator('tr[data-key-name="uploader-2"]');
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('/team');
    expect(text).toContain('Files');
    expect(text).toContain('Never');
    await context.close();
  });

  it('creates a key with the expense permission: stored, listed, and its holder is offered expense claims', async () => {
    const admin = await newPerson(suite.browser);
    await loginAsAdmin(admin.page, suite.server.url);
    // The admin reviews claims: the main menu offers them.
    const adminMain = admin.page.getByRole('navigation', { name: 'Main' });
    await expect(adminMain.getByRole('link', { name: 'Expense claims' }).getAttribute('href')).resolves.toBe('/expense');

    await admin.page.goto(`${suite.server.url}/admin/key-management`);
    await admin.page.getByRole('button', { name: 'Create key' }).first().click();
    const form = admin.page.getByRole('dialog', { name: 'Create API key' });
    const expense = form.getByLabel('Expense claims: file and track own claims');
    await expect(expense.isChecked()).resolves.toBe(false);
    await form.getByLabel('Name').fill('claimant');
    await form.getByLabel('Text: create and manage pastes').uncheck();
    await expense.check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const created = admin.page.getByRole('dialog', { name: 'API key created' });
    const key = (await created.getByTestId('created-key').textContent())?.trim() ?? '';
    await created.getByRole('button', { name: 'Done' }).click();
    const row = admin.page.locator('tr[data-key-name="claimant"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('Expenses');
    expect(await row.textContent()).not.toContain('Text');

    // The server stored the permission as chosen, and the edit form shows it.
    const authorization = `Bearer ${await admin.page.evaluate(() => localStorage.getItem('admin_token'))}`;
    const listed = await admin.page.request.get(`${suite.server.url}/api/admin/api-keys`, { headers: { Authorization: authorization } });
    const stored = ((await listed.json()) as { data: { name: string }[] }).data.find((item) => item.name === 'claimant');
    expect(stored).toMatchObject({ text_permission: false, file_permission: false, mount_permission: false, expense_permission: true });
    await row.getByRole('button', { name: 'Edit key claimant' }).click();
    const edit = admin.page.getByRole('dialog', { name: 'Edit API key' });
    await expect(edit.getByLabel('Expense claims: file and track own claims').isChecked()).resolves.toBe(true);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // Its holder lands on its claims (it has no user panel): the key's permissions as the browser keeps them, and
    // the menu entry.
    const holder = await newPerson(suite.browser);
    await holder.page.goto(`${suite.server.url}/admin`);
    await holder.page.getByRole('tab', { name: 'API key' }).click();
    await holder.page.getByRole('textbox', { name: 'API key' }).fill(key);
    await holder.page.getByRole('button', { name: 'Log in' }).click();
    await holder.page.waitForURL(`${suite.server.url}/expense`);
    expect(await holder.page.evaluate(() => JSON.parse(localStorage.getItem('api_key_permissions') ?? 'null'))).toEqual({
      text: false,
      file: false,
      mount: false,
      expense: true,
    });
    const holderMain = holder.page.getByRole('navigation', { name: 'Main' });
    await expect(holderMain.getByRole('link', { name: 'Expense claims' }).getAttribute('aria-current')).resolves.toBe('page');
    expect(holder.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await Promise.all([admin.context.close(), holder.context.close()]);
  });

  // sharex.test.ts posts what shareXUploaders describes to a real server; here the page hands out exactly that, at
  // the key's creation: the only time the page knows the whole key.
  it('downloads ShareX uploaders for a new key: files and text, each for this server and this key', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/key-management`);
    await expect(page.getByRole('link', { name: 'API reference' }).getAttribute('href')).resolves.toBe(`${suite.server.url}/api/docs`);
    await page.getByRole('button', { name: 'Create key' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill('desktop');
    await form.getByLabel('Files: upload and manage file shares').check();
    await form.getByLabel('Base path').fill('/local/desktop/');
    await form.getByRole('button', { name: 'Create key' }).click();

    const dialog = page.getByRole('dialog', { name: 'API key created' });
    const key = (await dialog.getByTestId('created-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^[A-Za-z0-9]{24}$/);
    await dialog.getByRole('heading', { name: 'Use with ShareX' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const expected = shareXUploaders({ key, name: 'desktop', text_permission: true, file_permission: true }, suite.server.url, suite.server.url);
    for (const [button, uploader] of [
      ['Files and screenshots (.sxcu)', expected.files],
      ['Text (.sxcu)', expected.text],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: button }).click()]);
      expect(download.suggestedFilename()).toMatch(/^Clipstash (files|text) desktop\.sxcu$/);
      expect(JSON.parse(await readFile(await download.path(), 'utf8'))).toEqual(uploader);
    }
    expect(expected.files?.RequestURL).toBe(`${suite.server.url}/api/upload`);
    expect(expected.text?.Headers).toEqual({ Authorization: `ApiKey ${key}` });
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Afterwards the list offers neither the key nor its uploaders; the base path was stored without its slash.
    const row = page.locator('tr[data-key-name="desktop"]');
    expect(await row.textContent()).toContain('/local/desktop');
    expect(await row.textContent()).not.toContain('/local/desktop/');
    expect(await row.getByRole('button', { name: /ShareX|Copy/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
