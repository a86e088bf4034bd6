import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { latitudeBytes, photoWithLocation } from '../fixtures/photos';
import { loginAsAdmin, newPerson, seriousA11yViolations } from './harness';
import { useSuite } from './suite';

const suite = useSuite();
const GPS = latitudeBytes();

/** Drops photos on the upload page's drop zone, as a person drags them in from the desktop. */
async function dropPhotos(page: Page, photos: { name: string; bytes: Buffer }[]) {
  const dataTransfer = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const item of items) transfer.items.add(new File([Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0))], item.name, { type: 'image/jpeg' }));
    return transfer;
  }, photos.map((photo) => ({ name: photo.name, base64: photo.bytes.toString('base64') })));
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
}

/** The bytes a visitor downloads from a share link. */
async function downloaded(page: Page, link: string): Promise<Buffer> {
  const slug = decodeURIComponent(link.split('/file/')[1] ?? '');
  return (await page.request.get(`${suite.server.url}/api/file-download/${encodeURIComponent(slug)}`)).body();
}

describe('shared photos without their location', () => {
  it('removes the position by default, keeps it when asked, and follows the admin’s setting', async () => {
    const photo = await photoWithLocation();
    const { page, context } = await newPerson(suite.browser);
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/upload`);
    const choice = page.getByLabel('Photo metadata');
    await expect(choice.locator('option:checked').textContent()).resolves.toBe('Remove location');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dropPhotos(page, [{ name: 'IMG_0001.jpg', bytes: photo }]);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const done = page.locator('li[data-file-name="IMG_0001.jpg"][data-task-status="completed"]');
    const stripped = await downloaded(page, await done.getByRole('textbox', { name: 'Share link' }).inputValue());
    expect(stripped.length).toBe(photo.length);
    expect(photo.includes(GPS)).toBe(true);
    expect(stripped.includes(GPS)).toBe(false);

    await choice.selectOption({ label: 'Keep as taken' });
    await dropPhotos(page, [{ name: 'IMG_0002.jpg', bytes: photo }]);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const kept = page.locator('li[data-file-name="IMG_0002.jpg"][data-task-status="completed"]');
    expect((await downloaded(page, await kept.getByRole('textbox', { name: 'Share link' }).inputValue())).equals(photo)).toBe(true);

    // Two photos together (one task): the choice holds for each.
    await choice.selectOption({ label: 'Remove all metadata (keep orientation)' });
    await dropPhotos(page, [
      { name: 'IMG_0003.jpg', bytes: photo },
      { name: 'IMG_0004.jpg', bytes: photo },
    ]);
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    const batch = page.locator('li[data-file-name="Share 2 files"][data-task-status="completed"]');
    await batch.waitFor();
    for (const line of await batch.locator('[data-share-path]').all()) {
      const bytes = await downloaded(page, (await line.getByRole('link').getAttribute('href')) ?? '');
      expect(bytes.includes(GPS)).toBe(false);
      expect(bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
    }
    expect(await batch.locator('[data-share-path]').count()).toBe(2);

    // The admin turns the default off: a new upload page starts from "keep".
    await page.goto(`${suite.server.url}/admin/settings`);
    const setting = page.getByRole('checkbox', { name: 'Remove location from shared images' });
    await expect(setting.isChecked()).resolves.toBe(true);
    await setting.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await page.goto(`${suite.server.url}/upload`);
    await expect.poll(() => page.getByLabel('Photo metadata').locator('option:checked').textContent()).toBe('Keep as taken');
    await context.close();
  });
});
