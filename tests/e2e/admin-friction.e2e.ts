import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yInThemes, ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, loginAsAdmin, newPerson, screenshot, SCREENSHOTS_WANTED, themesChecked } from './harness';
import { useSuite } from './suite';

const suite = useSuite();

const MARKDOWN = '| Item | Qty |\n|---|---|\n| **Apples** | 3 |';
let token = '';
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${suite.server.url}/api${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } });

async function createPaste(body: Record<string, unknown>): Promise<string> {
  const answer = await api('/paste', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { data: { slug: string } }).data.slug;
}

async function uploadFile(name: string, bytes: number, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  expect((await api('/upload', { method: 'POST', body: form })).status).toBe(201);
}

let markdownSlug = '';
let lockedSlug = '';
let usedUpSlug = '';

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  markdownSlug = await createPaste({ content: MARKDOWN, remark: 'Shopping list' });
  lockedSlug = await createPaste({ content: 'A secret note that is long enough to need an ellipsis in a table cell. '.repeat(3), password: 'pw' });
  usedUpSlug = await createPaste({ content: 'Read once', maxViews: 1 });
  expect((await fetch(`${suite.server.url}/api/paste/${usedUpSlug}`)).status).toBe(200);
  await uploadFile('big-30MB.bin', 30 * 1024 + 17);
  await uploadFile('quarterly-report-for-the-board-meeting-2026-final.backup.tar.gz', 2048, { password: 'pw' });
  const key = { name: 'Build server of the documentation team', text_permission: true, file_permission: true, mount_permission: true, basic_path: '/local/builds' };
  const created = await api('/admin/api-keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(key) });
  expect(created.status).toBe(201);
});

/** The number of lines a cell's visible text takes: distinct line boxes of its text, a half line apart or more. */
function linesOf(cell: Locator): Promise<number> {
  return cell.evaluate((element) => {
    const lineHeight = parseFloat(getComputedStyle(element).fontSize) * 1.2;
    const tops: number[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        const middle = rect.top + rect.height / 2;
        if (rect.width > 0 && !tops.some((top) => Math.abs(top - middle) < lineHeight / 2)) tops.push(middle);
      }
    }
    return tops.length;
  });
}

/** Every body cell of the page's table that is taller than one line, as "column: text". */
async function cellsOverOneLine(page: Page): Promise<string[]> {
  const over: string[] = [];
  for (const cell of await page.locator('tbody td').all()) {
    if ((await linesOf(cell)) > 1) over.push(`${await cell.getAttribute('data-label')}: ${await cell.innerText()}`);
  }
  return over;
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('admin tables', () => {
  it('keep one line per cell at 1280 px: plain-text previews, short dates with the full one, a password lock, a labelled actions column', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 900 } });
    await loginAsAdmin(page, suite.server.url);

    await page.goto(`${suite.server.url}/admin/text-management`);
    const markdownRow = page.locator(`tr[data-slug="${markdownSlug}"]`);
    await markdownRow.waitFor();
    expect(await cellsOverOneLine(page)).toEqual([]);
    await expect(page.getByRole('columnheader', { name: 'Actions' }).isVisible()).resolves.toBe(true);
    const content = markdownRow.locator('td[data-label="Content"]');
    expect(await content.innerText()).toBe('Shopping list Item Qty Apples 3');
    expect(await markdownRow.locator('td[data-label="Password"]').innerText()).toBe('No');

    const lockedRow = page.locator(`tr[data-slug="${lockedSlug}"]`);
    expect((await lockedRow.locator('td[data-label="Password"]').innerText()).trim()).toBe('Yes');
    await lockedRow.locator('td[data-label="Password"] svg').waitFor();
    // The long preview is cut with an ellipsis, whole in its title.
    const preview = lockedRow.locator('td[data-label="Content"] [title]');
    expect(await preview.evaluate((element) => element.parentElement!.scrollWidth > element.parentElement!.clientWidth)).toBe(true);
    expect(await preview.getAttribute('title')).toContain('A secret note');
    expect(await page.locator(`tr[data-slug="${usedUpSlug}"] td[data-label="Link suffix"]`).innerText()).toContain('Used up');

    // A date is short in the cell, and whole in its title and for screen readers.
    const created = markdownRow.locator('td[data-label="Created"] time [title]');
    const full = (await created.getAttribute('title')) ?? '';
    expect(full).toMatch(/, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(await created.locator('[aria-hidden="true"]').innerText()).not.toContain(String(new Date().getFullYear()));
    expect(await created.locator('.visually-hidden').textContent()).toBe(full);

    await page.goto(`${suite.server.url}/admin/file-management`);
    const big = page.locator('tr', { hasText: 'big-30MB.bin' });
    await big.waitFor();
    expect(await cellsOverOneLine(page)).toEqual([]);
    expect(await big.locator('td[data-label="Size"]').innerText()).toBe('30.0\u00a0KB');
    const long = page.locator('tr', { hasText: 'quarterly-report' });
    expect((await long.locator('td[data-label="Password"]').innerText()).trim()).toBe('Yes');
    expect(await long.locator('td[data-label="Name"] [title]').getAttribute('title')).toBe('quarterly-report-for-the-board-meeting-2026-final.backup.tar.gz');
    await expect(page.getByRole('columnheader', { name: 'Actions' }).isVisible()).resolves.toBe(true);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('become labelled cards at 360 px, with no sideways scrolling', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 360, height: 740 } });
    await loginAsAdmin(page, suite.server.url);
    for (const [module, slug] of [
      ['text-management', markdownSlug],
      ['file-management', undefined],
    ] as const) {
      await page.goto(`${suite.server.url}/admin/${module}`);
      const row = slug ? page.locator(`tr[data-slug="${slug}"]`) : page.locator('tr', { hasText: 'quarterly-report' });
      await row.waitFor();
      // A row is a card: its cells stack, each named by its column.
      expect(await row.evaluate((element) => getComputedStyle(element).display)).toBe('block');
      const labels = await row.locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
      expect(labels).toContain('"Created"');
      expect(labels).toContain('"Actions"');
      expect(await noSidewaysScroll(page), module).toBe(true);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('dashboard and settings', () => {
  it('the dashboard shows each storage with a bar and figures, and the counts on the chart', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 900 } });
    await loginAsAdmin(page, suite.server.url);
    const local = page.locator('li[data-storage-name="Local storage"]');
    await local.waitFor();
    const text = await local.innerText();
    expect(text).toContain('Server disk');
    expect(text).toContain('no quota');
    expect(text).toMatch(/\b2 files\b/);
    expect(text).toContain('100% of all stored');
    await expect(local.getByRole('progressbar').getAttribute('aria-valuenow')).resolves.toBe('100');

    // Today's pair of bars (the last) carries its counts: 3 pastes, 2 files.
    const today = page.locator('figure svg g').last();
    expect(await today.locator('text').allTextContents()).toEqual(expect.arrayContaining(['3', '2']));
    const table = page.locator('figure table tbody tr').last();
    expect(await table.locator('td').allTextContents()).toEqual(['3', '2']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('explains the selected WebDAV upload mode under its select, and the help follows the choice', async () => {
    const { page, context, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/admin/settings`);
    const mode = page.getByLabel('WebDAV upload mode');
    const help = async () => {
      const id = (await mode.getAttribute('aria-describedby')) ?? '';
      return page.locator(`[id="${id}"]`).innerText();
    };
    await expect.poll(help).toContain('Recommended.');
    await mode.selectOption('proxy');
    expect(await help()).toContain('does not support multipart uploads');
    await mode.selectOption('multipart');
    expect(await help()).toContain('Every file goes in parts');
    await mode.selectOption('direct');
    expect(await help()).toContain('with no signed URL');
    expect(await help()).toContain('local storage are always written straight to disk');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the admin panel at 360 px', () => {
  it('fades the module strip where more modules hide, and scrolls the current one clear of the fade', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 360, height: 740 } });
    await loginAsAdmin(page, suite.server.url);
    const strip = page.getByRole('navigation', { name: 'Admin panel' }).getByRole('list');
    const fades = () =>
      strip.evaluate((element) => ({
        before: element.hasAttribute('data-more-before'),
        after: element.hasAttribute('data-more-after'),
        mask: getComputedStyle(element).maskImage,
      }));

    await page.goto(`${suite.server.url}/admin/dashboard`);
    await expect.poll(fades).toMatchObject({ before: false, after: true });
    expect((await fades()).mask).toContain('gradient');

    await page.goto(`${suite.server.url}/admin/key-management`);
    await page.getByRole('heading', { name: 'Key management', exact: true }).waitFor();
    await expect.poll(fades).toMatchObject({ before: true, after: true });
    const current = await page.getByRole('link', { name: 'Key management' }).boundingBox();
    // Clear of both 2.5 rem fades.
    expect(current?.x ?? 0).toBeGreaterThanOrEqual(40);
    expect((current?.x ?? 999) + (current?.width ?? 0)).toBeLessThanOrEqual(320);

    await strip.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(fades).toMatchObject({ before: true, after: false });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('breaks a long file name in the task manager only before dots and after dashes', async () => {
    const { page, context, errors } = await newPerson(suite.browser, { viewport: { width: 360, height: 740 } });
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/upload`);
    const names = ['big-30MB.bin', 'quarterly-report-for-the-board-meeting-2026-final.backup.tar.gz'];
    for (const name of names) {
      const dataTransfer = await page.evaluateHandle((fileName) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['some bytes'], fileName, { type: 'application/octet-stream' }));
        return transfer;
      }, name);
      await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.locator(`li[data-file-name="${name}"][data-task-status="completed"]`).first().waitFor();
    }
    // The task manager's rows are the fullest: the name shares its line with the size, the status and "Remove".
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Task manager' });
    for (const name of names) {
      const row = sheet.locator(`li[data-file-name="${name}"]`);
      await row.waitFor();
      // Each piece between two break places sits on one line: no name is broken inside a word.
      const problems = await row.evaluate((element, fileName) => {
        const label = [...element.querySelectorAll('span')].find((span) => span.textContent === fileName);
        if (!label) return ['no label'];
        const texts: Text[] = [];
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
        const broken = texts.filter((text) => {
          const range = document.createRange();
          range.selectNodeContents(text);
          return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size !== 1;
        });
        const pieces = fileName.split(/(?=\.)|(?<=[-_])/);
        const found = texts.map((text) => text.textContent).join('|') === pieces.join('|') ? [] : ['not split at its break places'];
        // The short name keeps to one line.
        const lines = new Set([...label.getClientRects()].map((rect) => Math.round(rect.top))).size;
        const short = fileName === 'big-30MB.bin' && lines !== 1 ? [`${lines} lines`] : [];
        return [...found, ...broken.map((text) => `"${text.textContent}" broken`), ...short];
      }, name);
      expect(problems, name).toEqual([]);
    }
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

const MODULES = ['dashboard', 'text-management', 'file-management', 'storage-config', 'mount-management', 'key-management', 'settings'];

describe('every admin screen', () => {
  for (const locale of ['en-US', 'zh-CN']) {
    for (const width of [1280, 360]) {
      it(`in ${locale} at ${width} px: axe in ${themesChecked(locale, width).join(' and ')}, no sideways scroll${SCREENSHOTS_WANTED ? ', screenshots' : ''}`, async () => {
        const report: string[] = [];
        const { page, context, errors } = await newPerson(suite.browser, { locale, viewport: { width, height: width > 400 ? 900 : 740 } });
        await page.goto(`${suite.server.url}/admin`);
        await page.locator('input[autocomplete="username"]').fill(ADMIN_USERNAME);
        await page.locator('input[type="password"]').fill(ADMIN_PASSWORD);
        await page.locator('main form button[type="submit"]').click();
        await page.getByRole('navigation').locator('a[href="/admin/settings"]').waitFor();
        for (const module of MODULES) {
          await page.goto(`${suite.server.url}/admin/${module}`);
          await page.locator('main h2').first().waitFor();
          // A page may show several skeletons at once (mount management and its sync schedules).
          await page.waitForFunction(() => !document.querySelector('[role="status"][aria-label="Loading"]'));
          const where = `${module} ${locale} ${width}px`;
          if (!(await noSidewaysScroll(page))) report.push(`${where}: scrolls sideways`);
          if (width > 400 && module.endsWith('-management') && (await cellsOverOneLine(page)).length > 0) report.push(`${where}: cells over one line`);
          if (SCREENSHOTS_WANTED) {
            await page.emulateMedia({ colorScheme: 'light' });
            await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
            await screenshot(page, 'admin', `${module}-${locale}-${width}-light`);
          }
          report.push(...(await a11yInThemes(page, themesChecked(locale, width), where)));
          await screenshot(page, 'admin', `${module}-${locale}-${width}-dark`);
        }
        expect(errors.join('\n')).toBe('');
        await context.close();
        expect(report.join('\n')).toBe('');
      }, 240_000);
    }
  }
});
