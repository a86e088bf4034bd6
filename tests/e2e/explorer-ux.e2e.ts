/**
 * The mount explorer as a newcomer meets it: the context menu by mouse and keyboard, why the root's buttons are
 * off, a cancelled save dialog, an upload that says when it is done, a text file that opens ready to edit, and a
 * phone: taps open, tick boxes select, nothing moves under the finger, 44 px targets, one scroll; axe in both
 * languages, themes and widths.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, a11yInThemes, adminToken, animationsEnded, loginAsAdmin, newPerson, screenshot, seedMountFile, smallTargets, themesChecked } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
let token = '';

const seedFile = (folder: string, name: string, content: string) => seedMountFile(suite.server.url, token, folder, name, content);

async function exists(path: string): Promise<boolean> {
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const answer = await fetch(`${suite.server.url}/api/admin/fs/list?path=${encodeURIComponent(folder)}&refresh=true`, { headers: { Authorization: `Bearer ${token}` } });
  const listing = (await answer.json()) as { data: { items: { path: string }[] } };
  return listing.data.items.some((item) => item.path === path);
}

const listbox = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
/** An item by its name (its path ends in the name, and `/` for folders), in any language. */
const item = (page: Page, name: string) => page.locator(`[role="option"][data-path$="/${name}"], [role="option"][data-path$="/${name}/"]`);
const option = (page: Page, name: string) => listbox(page).locator(item(page, name));

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  await seedFile('/local/ux/', 'notes.txt', 'plain notes\n');
  await seedFile('/local/ux/', 'read-me.txt', 'read me\n');
  await seedFile('/local/ux/', 'a-rather-long-file-name.of.many.parts.2026-11-27.report.final.pdf', 'pdf');
  await seedFile('/local/ux/inner/', 'deep.txt', 'deep');
  await seedFile('/local/phone/', 'one.txt', '1');
  await seedFile('/local/phone/', 'two.txt', '2');
  await seedFile('/local/phone/', 'three.txt', '3');
  await seedFile('/local/phone/sub/', 'below.txt', 'below');
  for (let index = 0; index < 30; index++) await seedFile('/local/many/', `file-${String(index).padStart(2, '0')}.txt`, `${index}`);
});

describe('mount explorer on a desktop', () => {
  it('has a context menu by right-click and by keyboard, with the toolbar actions', async () => {
    const { page, errors } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local/ux`);

    // Right-click: the item becomes the selection and the menu carries its actions.
    await option(page, 'notes.txt').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions for notes.txt' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Open', 'Rename', 'Download', 'Copy link', 'Copy to…', 'Move to…', 'Delete']);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Open');
    await page.getByText('1 selected').waitFor();
    await menu.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename notes.txt' });
    await rename.getByLabel('New name').fill('renamed.txt');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await option(page, 'renamed.txt').waitFor();

    // A right-click elsewhere in the selection keeps it: the menu acts on both.
    await option(page, 'inner').click();
    await option(page, 'renamed.txt').click({ modifiers: ['Control'] });
    await option(page, 'inner').click({ button: 'right' });
    const both = page.getByRole('menu', { name: 'Actions for 2 items' });
    expect(await both.getByRole('menuitem').allTextContents()).toEqual(['Download as zip', 'Copy to…', 'Move to…', 'Delete']);
    // A click outside closes it.
    await page.getByRole('heading', { name: 'Mount explorer' }).click();
    await both.waitFor({ state: 'detached' });

    // Keyboard: Shift+F10 on the focused row; the arrows move, Escape closes and gives the focus back.
    await page.keyboard.press('Escape');
    await listbox(page).focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+F10');
    const keyboardMenu = page.getByRole('menu', { name: 'Actions for inner' });
    await keyboardMenu.waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Rename');
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Open');
    await page.keyboard.press('Escape');
    await keyboardMenu.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');

    // The ContextMenu key, then Enter on "Copy to…" (above "Move to…" and "Delete"): the folder picker opens in the
    // folder shown.
    await page.keyboard.press('ContextMenu');
    await keyboardMenu.waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Copy to…');
    await page.keyboard.press('Enter');
    const copy = page.getByRole('dialog', { name: 'Copy 1 items to…' });
    await copy.getByText('Folder: local / ux').waitFor();
    await copy.getByRole('button', { name: 'Cancel' }).click();

    // Delete from the menu.
    await option(page, 'renamed.txt').click({ button: 'right' });
    await page.getByRole('menu').getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete renamed.txt?' }).getByRole('button', { name: 'Delete' }).click();
    await option(page, 'renamed.txt').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await exists('/local/ux/renamed.txt')).toBe(false);
    expect(errors).toEqual([]);
  }, 90_000);

  it('says why the root cannot take uploads, tells a cancelled save dialog, and ends an upload with a done notice', async () => {
    const { page, errors } = await newPerson(suite.browser);
    // The save dialog closed by the person: Chromium's picker rejects with an AbortError.
    await page.addInitScript(() => {
      (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async () => {
        throw new DOMException('The user aborted a request.', 'AbortError');
      };
    });
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer`);
    await option(page, 'local').waitFor();
    const upload = page.getByRole('button', { name: 'Upload files' });
    expect(await upload.isDisabled()).toBe(true);
    const reasonId = await upload.getAttribute('aria-describedby');
    expect(reasonId).toBeTruthy();
    const reason = page.locator(`[id="${reasonId}"]`);
    expect(await reason.textContent()).toBe('Open a mount to upload into it or make a folder.');
    expect(await reason.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'New folder' }).getAttribute('aria-describedby')).toBe(reasonId);

    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await option(page, 'ux').click();
    const zip = page.getByRole('button', { name: 'Download as zip' });
    await zip.click();
    await page.getByText('Download cancelled').first().waitFor();
    expect(await zip.isEnabled()).toBe(true);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    expect(await page.getByRole('dialog', { name: 'Task manager' }).getByRole('listitem').filter({ hasText: 'ux.zip' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto(`${suite.server.url}/mount-explorer/local/ux/inner`);
    await option(page, 'deep.txt').waitFor();
    await page.getByLabel('Files to upload').setInputFiles([
      { name: 'u1.txt', mimeType: 'text/plain', buffer: Buffer.from('one') },
      { name: 'u2.txt', mimeType: 'text/plain', buffer: Buffer.from('two') },
      { name: 'u3.txt', mimeType: 'text/plain', buffer: Buffer.from('three') },
    ]);
    await page.getByText('Uploaded 3 files to /local/ux/inner/').first().waitFor({ timeout: 30_000 });
    await page.getByText('Uploading 3 files to /local/ux/inner/').waitFor({ state: 'detached' });
    await option(page, 'u3.txt').waitFor();
    expect(errors).toEqual([]);
  }, 90_000);

  it('opens a text file ready to read with Edit first and no greyed Save', async () => {
    const { page } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local/ux?preview=read-me.txt`);
    const preview = page.getByRole('region', { name: 'Preview of read-me.txt' });
    const editor = preview.getByRole('toolbar', { name: 'Editor' });
    await editor.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await editor.getByRole('button').allTextContents()).toEqual(['Edit', 'Preview']);
    await editor.getByRole('button', { name: 'Edit' }).click();
    const save = editor.getByRole('button', { name: 'Save' });
    await save.waitFor();
    // The editing area fills its frame: its background covers the frame, not just the one line.
    const frame = await preview.getByTestId('markdown-editor').boundingBox();
    const area = await preview.locator('.cm-editor').boundingBox();
    expect(area!.height).toBeGreaterThanOrEqual(frame!.height - 2);
  });
});

/** A phone: 390 px, touch, as a person holds it. */
async function phone(locale = 'en-US'): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const person = await newPerson(suite.browser, { locale, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  await loginAsAdmin(person.page, suite.server.url);
  return person;
}

/** Elements that scroll on their own, besides the page. */
function innerScrollers(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => {
        const style = getComputedStyle(element);
        return /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
      })
      .map((element) => `${element.tagName}.${element.className}`),
  );
}

describe('mount explorer on a phone', () => {
  it('a tap opens, tick boxes select several, nothing moves between taps, and the selection is deleted', async () => {
    const { page, errors } = await phone();
    await page.goto(`${suite.server.url}/mount-explorer/local`);
    await option(page, 'phone').tap();
    await page.waitForURL(/\/mount-explorer\/local\/phone$/);
    await page.getByText('Tap to open, long-press or tick to select.').waitFor();

    const top = async () => (await listbox(page).boundingBox())!.y;
    const before = await top();
    await page.getByRole('checkbox', { name: 'Select one.txt' }).tap();
    await page.getByText('1 selected').waitFor();
    expect(await top()).toBe(before);
    // A tap on a row while selecting ticks it too, instead of opening it.
    await option(page, 'two.txt').tap();
    await page.getByText('2 selected').waitFor();
    expect(await top()).toBe(before);
    await page.getByRole('checkbox', { name: 'Select two.txt' }).tap();
    await page.getByText('1 selected').waitFor();
    await page.getByRole('checkbox', { name: 'Select three.txt' }).tap();
    await page.getByText('2 selected').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Select three.txt' }).getAttribute('aria-checked')).toBe('true');
    expect(await top()).toBe(before);

    // The selection's bar, at the bottom of the screen, deletes both.
    const bar = page.getByRole('toolbar', { name: 'Selection actions' });
    const barBox = (await bar.boundingBox())!;
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(844 + 1);
    await bar.getByRole('button', { name: 'Delete' }).tap();
    await page.getByRole('alertdialog', { name: 'Delete 2 items?' }).getByRole('button', { name: 'Delete' }).tap();
    await option(page, 'three.txt').waitFor({ state: 'detached', timeout: 30_000 });
    await option(page, 'one.txt').waitFor({ state: 'detached' });
    expect(await exists('/local/phone/one.txt')).toBe(false);
    expect(await exists('/local/phone/three.txt')).toBe(false);
    expect(await exists('/local/phone/two.txt')).toBe(true);

    // A long press starts a selection; then a tap ticks instead of opening.
    const row = (await option(page, 'sub').boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const point = { x: row.x + row.width / 2, y: row.y + row.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.getByText('1 selected').waitFor();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    expect(await option(page, 'sub').getAttribute('aria-selected')).toBe('true');
    // Delete keeps its place on the bar whether one item or several are selected.
    const actions = page.getByRole('toolbar', { name: 'Selection actions' });
    const deleteAt = async () => {
      const box = await actions.getByRole('button', { name: 'Delete' }).boundingBox();
      return box && [Math.round(box.x), Math.round(box.y)];
    };
    const withOne = await deleteAt();
    await option(page, 'two.txt').tap();
    await page.getByText('2 selected').waitFor();
    expect(await deleteAt()).toEqual(withOne);
    expect(page.url()).toMatch(/\/mount-explorer\/local\/phone$/);
    expect(errors).toEqual([]);
  }, 90_000);

  it('keeps its place after a scroll, has 44 px targets and one scroll', async () => {
    const { page } = await phone();
    await page.goto(`${suite.server.url}/mount-explorer/local/many`);
    await option(page, 'file-29.txt').waitFor();
    expect(await smallTargets(page)).toEqual([]);
    expect(await innerScrollers(page)).toEqual([]);

    // Scrolled down, a tap on a tick box ticks that item: the list does not jump back to its first item.
    await option(page, 'file-25.txt').scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'Select file-25.txt' }).tap();
    await page.getByText('1 selected').waitFor();
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);
    expect(await option(page, 'file-25.txt').getAttribute('aria-selected')).toBe('true');
    expect(await smallTargets(page)).toEqual([]);

    // A toast raised from the bar stacks above it, never over its buttons.
    const selectionBar = page.getByRole('toolbar', { name: 'Selection actions' });
    await selectionBar.getByRole('button', { name: 'Copy link' }).tap();
    const toast = page.getByText(/copied|Copy failed/).first();
    await toast.waitFor();
    const [toastBox, barBox] = [await toast.boundingBox(), await selectionBar.boundingBox()];
    expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(barBox!.y);

    // The copy dialog's controls are large enough too, and it opens here.
    await page.getByRole('toolbar', { name: 'Selection actions' }).getByRole('button', { name: 'Copy to…' }).tap();
    const copy = page.getByRole('dialog', { name: 'Copy 1 items to…' });
    await copy.getByText('Folder: local / many').waitFor();
    for (const control of [copy.getByRole('button', { name: 'Up one level' }), copy.getByRole('button', { name: 'Copy here' }), copy.getByRole('button', { name: 'Close' })]) {
      expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    // "Up one level" starts at the left of its row, its icon beside its words, as the folders below it do.
    const up = copy.getByRole('button', { name: 'Up one level' });
    const [upBox, upIcon] = [await up.boundingBox(), await up.locator('svg').boundingBox()];
    expect(upIcon!.x - upBox!.x).toBeLessThan(24);
    // Move sits beside Copy on the phone's selection bar; its picker refuses the folder the item is already in.
    await copy.getByRole('button', { name: 'Close' }).tap();
    await page.getByRole('toolbar', { name: 'Selection actions' }).getByRole('button', { name: 'Move to…' }).tap();
    const move = page.getByRole('dialog', { name: 'Move 1 items to…' });
    await move.getByText('The items are already in this folder.').waitFor();
    expect(await move.getByRole('button', { name: 'Move here' }).isDisabled()).toBe(true);
  }, 60_000);
});

describe('mount explorer in both languages, themes and widths', () => {
  const logins = { 'en-US': ['Username', 'Password', 'Log in', 'Admin panel'], 'zh-CN': ['用户名', '密码', '登录', '管理面板'] } as const;
  for (const locale of ['en-US', 'zh-CN'] as const) {
    for (const width of [1280, 390]) {
      it(`${locale} at ${width} px: axe in ${themesChecked(locale, width).join(' and ')} finds nothing serious, nothing overflows`, async () => {
        const mobile = width < 600;
        const { page } = await newPerson(suite.browser, { locale, viewport: { width, height: 844 }, hasTouch: mobile, isMobile: mobile });
        const [username, password, login, panel] = logins[locale];
        await page.goto(`${suite.server.url}/admin`);
        await page.getByLabel(username).fill('admin');
        await page.getByLabel(password).fill(ADMIN_PASSWORD);
        await page.getByRole('button', { name: login }).click();
        await page.getByRole('heading', { name: panel }).waitFor();
        await page.goto(`${suite.server.url}/mount-explorer/local/ux`);
        await item(page, 'inner').waitFor();
        await item(page, 'a-rather-long-file-name.of.many.parts.2026-11-27.report.final.pdf').locator('[role="checkbox"]').click();
        const report: string[] = [];
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, colorScheme);
          // The colours' transitions end before the picture is taken.
          await animationsEnded(page);
          await screenshot(page, 'explorer-ux', `${locale}-${width}-${colorScheme}`, { fullPage: false });
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
        // Contrast depends on the theme alone: both are checked in English at 1280 px, the other layouts in the dark one.
        report.push(...(await a11yInThemes(page, themesChecked(locale, width), `${locale} ${width}`)));
        // The long name's icon keeps its size however the name wraps.
        const icon = await item(page, 'a-rather-long-file-name.of.many.parts.2026-11-27.report.final.pdf').locator('svg').last().boundingBox();
        expect(Math.round(icon!.width)).toBe(18);
        expect(report).toEqual([]);
      }, 60_000);
    }
  }
});
