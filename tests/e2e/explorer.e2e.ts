import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, adminToken, loginAsAdmin, newPerson, seedMountFile, seriousA11yViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

const seedFile = (folder: string, name: string, content: string) => seedMountFile(suite.server.url, token, folder, name, content);

async function contentOf(path: string): Promise<string> {
  const answer = await fetch(`${suite.server.url}/api/admin/fs/download?path=${encodeURIComponent(path)}`, { headers: { Authorization: `Bearer ${token}` } });
  return answer.text();
}

const listbox = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
/** An item by its name (its path ends in the name, and `/` for folders). */
const option = (page: Page, name: string) =>
  listbox(page).locator(`[role="option"][data-path$="/${name}"], [role="option"][data-path$="/${name}/"]`);
const shownNames = async (page: Page) => {
  await listbox(page).getByRole('option').first().waitFor();
  const paths = await listbox(page).getByRole('option').evaluateAll((options) => options.map((element) => element.getAttribute('data-path') ?? ''));
  return paths.map((path) => path.replace(/\/$/, '').split('/').pop());
};

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  await seedFile('/local/docs/', 'notes.md', '# Notes\n\nfirst line\n');
  await seedFile('/local/docs/', 'b.txt', 'bee');
  await seedFile('/local/team/', 'plan.txt', 'the plan');
  await seedFile('/local/other/', 'secret.txt', 'not for keys');
});

describe('mount explorer', () => {
  it('an admin browses from the root, makes, renames and opens folders, and edits and saves a Markdown file', async () => {
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.getByRole('link', { name: 'Mount explorer' }).first().click();
    await option(page, 'local').waitFor();
    await option(page, 'local').dblclick();
    await page.waitForURL(/\/mount-explorer\/local$/);
    await option(page, 'docs').waitFor();
    expect(await shownNames(page)).toEqual(expect.arrayContaining(['docs', 'other', 'team']));

    // A new folder, with its name checked first.
    await page.getByRole('button', { name: 'New folder' }).click();
    const mkdir = page.getByRole('dialog', { name: 'New folder' });
    await mkdir.getByLabel('Folder name').fill('a/b');
    await mkdir.getByRole('button', { name: 'Create' }).click();
    await mkdir.getByText('A name cannot be . or .. or contain / or \\').waitFor();
    await mkdir.getByLabel('Folder name').fill('照片 2026');
    await mkdir.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Folder 照片 2026 created').first().waitFor();
    await option(page, '照片 2026').waitFor();

    // Rename it with F2 from the keyboard.
    await option(page, '照片 2026').click();
    await listbox(page).press('F2');
    const rename = page.getByRole('dialog', { name: 'Rename 照片 2026' });
    await rename.getByLabel('New name').fill('photos');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await option(page, 'photos').waitFor();
    expect(await shownNames(page)).not.toContain('照片 2026');

    // Into docs by the keyboard: the path is the URL, so back and forward work.
    await option(page, 'docs').click();
    await listbox(page).press('Enter');
    await page.waitForURL(/\/mount-explorer\/local\/docs$/);
    expect(await shownNames(page)).toEqual(['b.txt', 'notes.md']);
    await page.getByRole('button', { name: 'Sort by Size' }).click();
    expect(await shownNames(page)).toEqual(['b.txt', 'notes.md']);
    await page.getByRole('button', { name: 'Sorted by Size, ascending' }).click();
    expect(await shownNames(page)).toEqual(['notes.md', 'b.txt']);
    await page.goBack();
    await option(page, 'photos').waitFor();
    await page.goForward();
    await option(page, 'notes.md').waitFor();

    // Preview the Markdown, edit it, save it: the file on the storage changes.
    await option(page, 'notes.md').dblclick();
    await page.waitForURL(/\?preview=notes\.md$/);
    const preview = page.getByRole('region', { name: 'Preview of notes.md' });
    await preview.getByRole('heading', { name: 'Notes', exact: true }).waitFor();
    await preview.getByRole('button', { name: 'Edit' }).click();
    const editor = preview.getByRole('textbox', { name: 'Content of notes.md' });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('second line');
    await preview.getByText('Unsaved changes').waitFor();
    // Leaving with unsaved text asks first.
    await preview.getByRole('button', { name: 'Back to folder' }).click();
    const discard = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await discard.getByRole('button', { name: 'Cancel' }).click();
    await preview.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved notes.md').first().waitFor();
    expect(await contentOf('/local/docs/notes.md')).toBe('# Notes\n\nfirst line\nsecond line');
    // A reload shows the saved text.
    await page.reload();
    await page.getByRole('region', { name: 'Preview of notes.md' }).getByText('second line').waitFor();
    await page.getByRole('button', { name: 'Back to folder' }).click();
    await option(page, 'notes.md').waitFor();

    // Grid view is kept per browser.
    await page.getByRole('button', { name: 'Grid view' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'List view' }).waitFor();
    await page.getByRole('button', { name: 'List view' }).click();
    expect(errors).toEqual([]);
  });

  it('works from the keyboard alone: arrows, shift-selection, Escape, Backspace up', async () => {
    const { page } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local/docs`);
    await option(page, 'b.txt').waitFor();
    await listbox(page).focus();
    await page.keyboard.press('Shift+ArrowDown');
    await page.getByText('2 selected').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'New folder' }).waitFor();
    await page.keyboard.press('Control+a');
    await page.getByText('2 selected').waitFor();
    await page.keyboard.press('Backspace');
    await page.waitForURL(/\/mount-explorer\/local$/);
    await option(page, 'docs').waitFor();
  });

  it('a key limited to a base path starts there and is refused elsewhere with the reason', async () => {
    const created = await fetch(`${suite.server.url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'team', mount_permission: true, text_permission: false, file_permission: false, basic_path: '/local/team' }),
    });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    const { page } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/admin`);
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key' }).fill(key);
    await page.getByRole('button', { name: 'Log in' }).click();
    // A mount-only key has no user panel: it lands in the explorer, at its base path.
    await page.waitForURL(/\/mount-explorer\/local\/team$/);
    expect(await shownNames(page)).toEqual(['plan.txt']);
    await page.goto(`${suite.server.url}/mount-explorer/local/other`);
    await page.getByRole('heading', { name: 'Permission denied' }).waitFor();
    await page.getByText('You can only access /local/team and its subdirectories').waitFor();
    expect(await listbox(page).count()).toBe(0);
  });

  it('in Chinese at 360 px, light and forced dark: readable, and axe finds nothing serious', async () => {
    const { page } = await newPerson(suite.browser, { locale: 'zh-CN', viewport: { width: 360, height: 740 } });
    await page.goto(`${suite.server.url}/admin`);
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('heading', { name: '管理面板' }).waitFor();
    await page.goto(`${suite.server.url}/mount-explorer/local/docs`);
    await page.getByRole('listbox', { name: '文件和文件夹' }).waitFor();
    await page.getByRole('button', { name: '新建文件夹' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${suite.server.url}/mount-explorer/local/docs?darkMode=true`);
    await page.getByRole('button', { name: '新建文件夹' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
