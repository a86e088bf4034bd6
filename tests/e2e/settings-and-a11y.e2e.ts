import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, loginAsAdmin, newPerson, seriousA11yViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

describe('system settings', () => {
  it('saves the max upload size in KB and the WebDAV mode, and refuses 0', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
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

  it("edits the expense categories: the server's defaults, rename, add, remove, at least one; saved with the rest", async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/settings`);
    const editor = page.getByRole('group', { name: 'Expense categories' });
    const names = () => editor.getByRole('textbox').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    await editor.getByRole('textbox', { name: 'Category 1' }).waitFor();
    await expect(names()).resolves.toEqual(['travel', 'meals', 'lodging', 'supplies', 'other']);

    // Rename, remove, add (the new row takes the focus); an empty row and a repeat are refused on save.
    await editor.getByRole('textbox', { name: 'Category 1' }).fill('Travel');
    await editor.getByRole('button', { name: 'Remove category 4' }).click();
    await editor.getByRole('button', { name: 'Add category' }).click();
    await expect(page.evaluate(() => (document.activeElement as HTMLInputElement).getAttribute('aria-label'))).resolves.toBe('Category 5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await editor.getByText('Enter a name or remove this category').waitFor();
    await editor.getByRole('textbox', { name: 'Category 5' }).fill(' meals ');
    await editor.getByText('This category is already in the list').waitFor();
    await expect(editor.getByRole('textbox', { name: 'Category 5' }).getAttribute('aria-invalid')).resolves.toBe('true');
    await editor.getByRole('textbox', { name: 'Category 5' }).fill(' Taxi ');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').first().waitFor();

    const authorization = `Bearer ${await page.evaluate(() => localStorage.getItem('admin_token'))}`;
    const answer = await page.request.get(`${suite.server.url}/api/expenses/categories`, { headers: { Authorization: authorization } });
    expect(((await answer.json()) as { data: { categories: string[] } }).data.categories).toEqual(['Travel', 'meals', 'lodging', 'other', 'Taxi']);
    await page.reload();
    await editor.getByRole('textbox', { name: 'Category 1' }).waitFor();
    await expect(names()).resolves.toEqual(['Travel', 'meals', 'lodging', 'other', 'Taxi']);

    // One category always stays: the last one cannot be removed.
    for (let left = 5; left > 1; left--) await editor.getByRole('button', { name: `Remove category ${left}` }).click();
    await expect(names()).resolves.toEqual(['Travel']);
    await expect(editor.getByRole('button', { name: 'Remove category 1' }).isDisabled()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the dashboard counts the claims awaiting review (submitted and processing) and links to them', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    const authorization = `Bearer ${await page.evaluate(() => localStorage.getItem('admin_token'))}`;
    const categories = await page.request.get(`${suite.server.url}/api/expenses/categories`, { headers: { Authorization: authorization } });
    const [category] = ((await categories.json()) as { data: { categories: string[] } }).data.categories;
    const file = async (title: string, ...steps: string[]) => {
      const claim = { title, amount_minor: 1250, currency: 'EUR', spent_on: '2026-01-15', category };
      const made = await page.request.post(`${suite.server.url}/api/expenses`, { data: claim, headers: { Authorization: authorization } });
      expect(made.status()).toBe(201);
      const { id } = ((await made.json()) as { data: { id: string } }).data;
      for (const step of steps) {
        const done = await page.request.post(`${suite.server.url}/api${step.replace('{id}', id)}`, { data: {}, headers: { Authorization: authorization } });
        expect(done.ok()).toBe(true);
      }
    };
    await file('a draft');
    await file('submitted', '/expenses/{id}/submit');
    await file('in processing', '/expenses/{id}/submit', '/admin/expenses/{id}/process');

    await page.goto(`${suite.server.url}/admin/dashboard`);
    const card = page.getByRole('link', { name: /Claims awaiting review/ });
    await expect(card.textContent()).resolves.toBe('2Claims awaiting review');
    await card.click();
    await page.waitForURL(`${suite.server.url}/expense`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes the admin password under its rules (the current one, a new one long enough, confirmed), then asks to log in again', async () => {
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/settings`);
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
    await loginAsAdmin(page, suite.server.url, 'a-brand-new-password');

    // Put it back for the other tests of this file.
    await page.goto(`${suite.server.url}/admin/settings`);
    await page.getByLabel('Current password').fill('a-brand-new-password');
    await page.getByLabel('New password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Change login details' }).click();
    await page.getByRole('heading', { name: 'Log in to Clipstash' }).waitFor();
    await context.close();
  });
});

describe('accessibility (axe-core: no serious or critical violation)', () => {
  const publicRoutes = ['/', '/upload', '/admin', '/paste/abc', '/file/abc', '/mount-explorer', '/expense'];
  // The admin's modules are checked in both themes, both languages and two widths by admin-friction.e2e.ts.
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`every route in the ${colorScheme} theme`, async () => {
      const { page, context } = await newPerson(suite.browser, { colorScheme });
      const report: string[] = [];
      for (const route of publicRoutes) {
        await page.goto(`${suite.server.url}${route}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        report.push(...(await seriousA11yViolations(page)).map((v) => `${route} ${v}`));
      }
      await loginAsAdmin(page, suite.server.url);
      // Lists with rows in them, and share pages with content.
      const authorization = `Bearer ${await page.evaluate(() => localStorage.getItem('admin_token'))}`;
      const paste = await page.request.post(`${suite.server.url}/api/paste`, {
        data: { content: '# Shared\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```' },
        headers: { Authorization: authorization },
      });
      const file = await page.request.post(`${suite.server.url}/api/upload`, {
        multipart: { file: { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') } },
        headers: { Authorization: authorization },
      });
      const pasteSlug = ((await paste.json()) as { data: { slug: string } }).data.slug;
      const fileSlug = ((await file.json()) as { data: { slug: string } }).data.slug;
      for (const route of ['/', '/upload', `/paste/${pasteSlug}`, `/file/${fileSlug}`]) {
        await page.goto(`${suite.server.url}${route}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        report.push(...(await seriousA11yViolations(page)).map((v) => `${route} (admin) ${v}`));
      }
      const dialogs: [string, string, string][] = [
        ['/admin/key-management', 'Create key', 'create-key dialog'],
        ['/admin/storage-config', 'Add storage', 'storage form'],
        ['/upload', 'Tasks', 'task manager'],
      ];
      for (const [route, button, name] of dialogs) {
        await page.goto(`${suite.server.url}${route}`);
        await page.getByRole('button', { name: button }).first().click();
        await page.getByRole('dialog').waitFor();
        report.push(...(await seriousA11yViolations(page)).map((v) => `${name} ${v}`));
      }
      expect(report).toEqual([]);
      await context.close();
    }, 240_000); // axe on every route, one after another: minutes on a busy 2-core machine.
  }
});
