/**
 * A folder of thousands of files in the mount explorer: only a window of rows is in the page, yet the keyboard
 * reaches the last item, a shift-click range and "select all" count every item (also while the folder is still
 * listing), a selection across the window is deleted, and the grid is windowed too with its thumbnails still shown.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, localStorageRoot, loginAsAdmin, newPerson, seriousA11yViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
let root = '';
const FILES = 3000;
const name = (index: number) => `file-${String(index).padStart(4, '0')}.txt`;

const listbox = (page: Page) => page.getByRole('listbox', { name: 'Files and folders' });
const option = (page: Page, file: string) => listbox(page).locator(`[role="option"][data-path$="/${file}"]`);
const drawnOptions = (page: Page) => listbox(page).locator('[role="option"]').count();
const activeOption = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    const id = active?.getAttribute('aria-activedescendant');
    const option = id ? document.getElementById(id) : null;
    return { focusOnList: active?.getAttribute('role') === 'listbox', path: option?.dataset.path, position: option?.getAttribute('aria-posinset') };
  });

/** The folder opened, every page of it listed (the progress line gone, the options counting the whole folder). */
async function openFolder(page: Page, folder: string, total: number) {
  await page.goto(`${suite.server.url}/mount-explorer${folder}`);
  await listbox(page).locator(`[role="option"][aria-setsize="${total}"]`).first().waitFor();
  await page.getByRole('status').filter({ hasText: 'Listing…' }).waitFor({ state: 'detached' });
}

beforeAll(async () => {
  root = await localStorageRoot(suite.server, await adminToken(suite.server.url));
  // Written straight into the LOCAL storage's folder: thousands of uploads would take minutes.
  mkdirSync(join(root, 'big'), { recursive: true });
  for (let index = 0; index < FILES; index++) writeFileSync(join(root, 'big', name(index)), `${index}`);
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } }).png().toBuffer();
  mkdirSync(join(root, 'tiles'), { recursive: true });
  for (let index = 0; index < 2000; index++) writeFileSync(join(root, 'tiles', name(index)), `${index}`);
  for (const photo of ['a-first.png', 'zz-last.png']) writeFileSync(join(root, 'tiles', photo), picture);
});

describe('a folder of thousands of files', () => {
  it('draws a window of rows, yet the keyboard, ranges, select all and delete reach every item', async () => {
    const { page, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 800 } });
    await loginAsAdmin(page, suite.server.url);
    await openFolder(page, '/local/big', FILES);
    expect(await drawnOptions(page)).toBeLessThan(100);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // End reaches the last item, drawn and active, with the focus still on the list.
    await option(page, name(0)).click();
    await page.keyboard.press('End');
    await option(page, name(FILES - 1)).waitFor();
    await expect.poll(() => activeOption(page)).toEqual({ focusOnList: true, path: `/local/big/${name(FILES - 1)}`, position: String(FILES) });
    expect(await option(page, name(0)).count()).toBe(0);
    expect(await drawnOptions(page)).toBeLessThan(100);
    await page.keyboard.press('PageUp');
    await expect.poll(async () => Number((await activeOption(page)).position)).toBeLessThan(FILES - 5);
    await page.keyboard.press('Home');
    await expect.poll(() => activeOption(page)).toEqual({ focusOnList: true, path: `/local/big/${name(0)}`, position: '1' });

    // A shift-click range from an item far above, over rows never drawn.
    await option(page, name(5)).click();
    await page.keyboard.press('End');
    await option(page, name(FILES - 6)).click({ modifiers: ['Shift'] });
    await page.getByText(`${FILES - 10} selected`).waitFor();
    await page.keyboard.press('Control+a');
    await page.getByText(`${FILES} selected`).waitFor();
    await page.keyboard.press('Escape');

    // Delete a range whose middle was never drawn (the server deletes a path at a time: a few dozen keep it short).
    await page.keyboard.press('Home');
    await option(page, name(5)).click();
    await listbox(page).evaluate((box) => (box.scrollTop = box.scrollHeight * (40 / 3000)));
    await option(page, name(45)).click({ modifiers: ['Shift'] });
    await page.getByText('41 selected').waitFor();
    await page.keyboard.press('Delete');
    await page.getByRole('alertdialog', { name: 'Delete 41 items?' }).getByRole('button', { name: 'Delete' }).click();
    // The folder is listed again once the task ends.
    await listbox(page).locator(`[role="option"][aria-setsize="${FILES - 41}"]`).first().waitFor({ timeout: 120_000 });
    const left = readdirSync(join(root, 'big'));
    expect(left).toHaveLength(FILES - 41);
    expect(left).toContain(name(4));
    expect(left).not.toContain(name(5));
    expect(left).not.toContain(name(25));
    expect(left).not.toContain(name(45));
    expect(left).toContain(name(46));
    expect(errors).toEqual([]);
    // Thousands of files written, listed and deleted on a shared machine.
  }, 240_000);

  it('takes every item into "select all" while the folder is still listing, and Delete waits for the rest', async () => {
    const { page, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 800 } });
    await loginAsAdmin(page, suite.server.url);
    // The pages after the first wait until the test lets them go.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/fs\/list\?.*offset=[1-9]/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/mount-explorer/local/tiles`);
    await page.getByRole('status').filter({ hasText: 'Listing… 500 of 2,002 items' }).waitFor();
    await listbox(page).locator('[data-path$="/a-first.png"]').click();
    await page.keyboard.press('Control+a');
    await page.getByText('500 selected').waitFor();
    await page.keyboard.press('Delete');
    expect(await page.getByRole('alertdialog').count()).toBe(0);

    release();
    // The rest arrives selected, and the dialog opens for every item of the folder.
    const dialog = page.getByRole('alertdialog', { name: 'Delete 2002 items?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('2002 selected').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Select all' }).isChecked()).toBe(true);
    expect(readdirSync(join(root, 'tiles'))).toHaveLength(2002);
    expect(errors).toEqual([]);
  });

  it('windows the grid too, its rows by the columns, and shows the thumbnails at both ends', async () => {
    const { page, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 800 } });
    await loginAsAdmin(page, suite.server.url);
    await openFolder(page, '/local/tiles', 2002);
    await page.getByRole('button', { name: 'Grid view' }).click();
    await listbox(page).locator('[data-path$="/a-first.png"] img').waitFor();
    expect(await drawnOptions(page)).toBeLessThan(200);
    await listbox(page).locator('[data-path$="/a-first.png"]').click();
    await page.keyboard.press('End');
    await listbox(page).locator('[data-path$="/zz-last.png"] img').waitFor();
    await expect.poll(() => activeOption(page)).toEqual({ focusOnList: true, path: '/local/tiles/zz-last.png', position: '2002' });
    // Up moves by a whole row of tiles.
    const columns = await listbox(page).evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => Number((await activeOption(page)).position)).toBe(2002 - columns);
    expect(await drawnOptions(page)).toBeLessThan(200);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
