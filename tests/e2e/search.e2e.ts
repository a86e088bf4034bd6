/**
 * Search in the browser, against the real server: the explorer's search (a Chinese and a Latin name, opened in
 * place, gone once deleted), the text table's search by a word of a paste, the mount's index state and its
 * rebuild, and axe at 360 px in the dark theme and zh-CN.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, loginAsAdmin, newPerson, seedMountFile, seriousA11yViolations } from './harness';
import { adminApi } from './mounts';
import { createPaste } from './offline';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

const searchField = (page: Page) => page.getByRole('searchbox', { name: 'Search names below this folder' });
const results = (page: Page) => page.getByRole('list', { name: 'Search results' });
const result = (page: Page, path: string) => results(page).locator(`button[data-result][data-path="${path}"]`);
const resultPaths = (page: Page) => results(page).locator('button[data-result]').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-path')));
const listing = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  await seedMountFile(suite.server.url, token, '/local/reports/', '年度报告.docx', 'annual');
  await seedMountFile(suite.server.url, token, '/local/reports/', 'Quarterly-Report.pdf', 'quarterly');
  await seedMountFile(suite.server.url, token, '/local/misc/', 'notes.txt', 'notes');
  await seedMountFile(suite.server.url, token, '/local/misc/', 'old-report.txt', 'to be deleted');
});

describe('explorer search', () => {
  it('finds a Chinese and a Latin name below the folder, by keyboard, and opens them in place', async () => {
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await listing(page).waitFor();

    // `/` from the page focuses the field, and typing searches.
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search names below this folder');
    await page.keyboard.type('报告');
    await result(page, '/local/reports/年度报告.docx').waitFor();
    expect(await resultPaths(page)).toEqual(['/local/reports/年度报告.docx']);
    await results(page).getByRole('link', { name: /\/local\/reports\// }).waitFor();

    // Case-insensitive substring: "report" finds Quarterly-Report.pdf (and old-report.txt), not the Chinese name.
    await searchField(page).fill('report');
    await result(page, '/local/reports/Quarterly-Report.pdf').waitFor();
    expect((await resultPaths(page)).sort()).toEqual(['/local/misc/old-report.txt', '/local/reports/Quarterly-Report.pdf', '/local/reports/'].sort());
    await page.getByLabel('Show', { exact: true }).selectOption('file');
    await expect.poll(() => resultPaths(page).then((paths) => paths.sort())).toEqual(['/local/misc/old-report.txt', '/local/reports/Quarterly-Report.pdf']);

    // Down goes into the results, Enter opens the file in its folder, previewed as a double-click would.
    await searchField(page).focus();
    await page.keyboard.press('ArrowDown');
    const first = (await resultPaths(page))[0];
    await page.keyboard.press('Enter');
    const name = first?.split('/').pop() ?? '';
    await page.getByRole('region', { name: `Preview of ${name}` }).waitFor();
    expect(decodeURIComponent(page.url())).toContain(`/mount-explorer/local/${first?.includes('/misc/') ? 'misc' : 'reports'}?preview=${name}`);
    await page.getByRole('button', { name: 'Back to folder' }).click();
    await listing(page).waitFor();
    expect(await searchField(page).inputValue()).toBe('');

    // Only below the folder shown: from /local/misc, 报告 finds nothing.
    await page.goto(`${suite.server.url}/mount-explorer/local/misc`);
    await searchField(page).fill('报告');
    await page.getByRole('heading', { name: 'Nothing found' }).waitFor();
    // Escape ends the search: the folder's listing is back.
    await searchField(page).press('Escape');
    await listing(page).waitFor();

    // A result's folder is a link: the folder opens with its listing.
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await searchField(page).fill('报告');
    await results(page).getByRole('link', { name: /\/local\/reports\// }).first().click();
    await page.waitForURL(/\/mount-explorer\/local\/reports$/);
    await listing(page).locator('[data-path="/local/reports/年度报告.docx"]').waitFor();
    expect(errors).toEqual([]);
  });

  it('finds a file no longer once it is deleted', async () => {
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await searchField(page).fill('old-report');
    await result(page, '/local/misc/old-report.txt').waitFor();

    const removed = await adminApi(suite.server.url, token)('fs/batch-remove', { method: 'POST', body: JSON.stringify({ paths: ['/local/misc/old-report.txt'] }) });
    expect(removed.ok).toBe(true);

    // The same search again (Escape, then the same text): the file is gone at once.
    await searchField(page).press('Escape');
    await searchField(page).fill('old-report');
    await page.getByRole('heading', { name: 'Nothing found' }).waitFor();
    expect(await results(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('explorer search, more', () => {
  it('pages with Load more past the first 50 results', async () => {
    const names = Array.from({ length: 55 }, (_, i) => `bulk-${String(i).padStart(2, '0')}.txt`);
    for (let i = 0; i < names.length; i += 5) {
      await Promise.all(names.slice(i, i + 5).map((name) => seedMountFile(suite.server.url, token, '/local/bulk/', name, name)));
    }
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local/bulk`);
    await searchField(page).fill('bulk-');
    await page.getByText('First 50 results for “bulk-”').waitFor();
    expect(await resultPaths(page)).toHaveLength(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('55 results for “bulk-”').waitFor();
    expect(new Set(await resultPaths(page))).toEqual(new Set(names.map((name) => `/local/bulk/${name}`)));
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a key searches through /api/user, within its base path only', async () => {
    const created = await adminApi(suite.server.url, token)('api-keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'misc', mount_permission: true, text_permission: false, file_permission: false, basic_path: '/local/misc' }),
    });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    const { page, errors } = await newPerson(suite.browser);
    await page.goto(`${suite.server.url}/admin`);
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key' }).fill(key);
    await page.getByRole('button', { name: 'Log in' }).click();
    // A mount-only key has no user panel: it lands in the explorer, at its base path.
    await page.waitForURL(/\/mount-explorer\/local\/misc$/);

    const asked = page.waitForRequest((request) => request.url().includes('/api/user/fs/search'));
    await searchField(page).fill('notes');
    await asked;
    await result(page, '/local/misc/notes.txt').waitFor();
    // The Chinese name lies outside the key's base path: not found, even from its own folder's search.
    await searchField(page).fill('报告');
    await page.getByRole('heading', { name: 'Nothing found' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('share search', () => {
  it('the admin finds a paste by a word of its text in the text table, acts on it, and clears back to the pages', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 12; i++) slugs.push(await createPaste(suite.server.url, { content: `filler paste number ${i}` }));
    const wanted = await createPaste(suite.server.url, { content: 'Grandma’s recipe: bitter orange marmalade, slow cooked.', remark: 'kitchen' });
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/text-management`);
    await page.locator(`tr[data-slug="${wanted}"]`).waitFor();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();

    await page.getByRole('searchbox', { name: 'Search by link, remark or text' }).fill('MARMALADE');
    await expect.poll(() => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-slug')))).toEqual([wanted]);
    await page.getByText('1 found').waitFor();
    // A search's rows are shown whole: no pages.
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);

    // Its row actions work on the search's row: delete it, and the search shows nothing left.
    await page.locator(`tr[data-slug="${wanted}"]`).getByRole('button', { name: `Delete ${wanted}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete this share?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Nothing matches “MARMALADE”' }).waitFor();

    // Clearing brings back the paged list.
    await page.getByRole('searchbox', { name: 'Search by link, remark or text' }).press('Escape');
    await page.locator(`tr[data-slug="${slugs.at(-1)}"]`).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(10);
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('mount management', () => {
  it("shows each mount's index, changes its rescan and rebuilds it", async () => {
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/mount-management`);
    const row = page.locator('tr[data-index-mount="/local"]');
    await row.locator('[data-index-state]').waitFor();
    await expect.poll(() => row.locator('[data-index-state]').getAttribute('data-index-state'), { timeout: 30_000 }).toBe('complete');
    expect(Number((await row.locator('td[data-label="Entries"]').textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(5);

    await row.getByRole('button', { name: 'Change the rescan of /local' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rescan of /local' });
    await dialog.getByLabel('Rescan every (minutes)').fill('-1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('0 or more minutes').waitFor();
    await dialog.getByLabel('Rescan every (minutes)').fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Rescan of /local turned off').first().waitFor();
    await row.getByText('Off', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Rebuild index /local' }).click();
    await page.getByRole('alertdialog', { name: 'Rebuild the index of /local?' }).getByRole('button', { name: 'Rebuild index' }).click();
    await page.getByText('Rebuilding the index of /local').first().waitFor();
    // The list follows the build to its end by itself.
    await expect.poll(() => row.locator('[data-index-state]').getAttribute('data-index-state'), { timeout: 30_000 }).toBe('complete');
    expect(errors).toEqual([]);
  });
});

describe('at 360 px, dark, in zh-CN', () => {
  it('the search UI passes axe and does not scroll sideways', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { locale: 'zh-CN', colorScheme: 'dark', viewport: { width: 360, height: 740 } });
    await page.goto(`${suite.server.url}/admin`);
    await page.locator('input[autocomplete="username"]').fill(ADMIN_USERNAME);
    await page.locator('input[type="password"]').fill(ADMIN_PASSWORD);
    await page.locator('main form button[type="submit"]').click();
    await page.getByRole('navigation').locator('a[href="/admin/settings"]').waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const report: string[] = [];
    const check = async (where: string) => {
      if (!(await noSidewaysScroll(page))) report.push(`${where}: scrolls sideways`);
      report.push(...(await seriousA11yViolations(page)).map((violation) => `${where}: ${violation}`));
    };

    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await page.locator('input[type="search"]').fill('报告');
    await page.locator('button[data-result]').first().waitFor();
    await check('explorer results');
    await page.locator('input[type="search"]').fill('没有这个名字');
    await page.locator('main h3').first().waitFor();
    await check('explorer, nothing found');

    await page.goto(`${suite.server.url}/admin/text-management`);
    await page.locator('input[type="search"]').fill('filler');
    await page.locator('tbody tr').first().waitFor();
    await check('text table search');

    await page.goto(`${suite.server.url}/admin/mount-management`);
    await page.locator('tr[data-index-mount="/local"] [data-index-state]').waitFor();
    await check('mount indexes');
    await page.locator('tr[data-index-mount="/local"] button[aria-label]').first().click();
    await page.getByRole('dialog').waitFor();
    await check('rescan dialog');

    expect(report.join('\n')).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });
});
