import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { a11yInBothThemes, adminToken, localStorageRoot, loginAsAdmin, newPerson } from './harness';
import { useSuite } from './suite';
import { scrollGridByScreen, tilesOnScreen } from './thumbnail-grid';

const suite = useSuite();
let token = '';
const PHOTOS = 30;
/** More photos than the grid draws at once (src/pages/mount-explorer/use-item-window.ts), in `/local/many`. */
const MANY = 320;
const tileName = (index: number) => `tile-${String(index).padStart(3, '0')}.png`;

/** A 1200 × 900 PNG of its own colour: far heavier than its thumbnail. */
const photo = (index: number) =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: (index * 37) % 256, g: (index * 91) % 256, b: 120 } } })
    .png()
    .toBuffer();

async function upload(path: string, form: FormData) {
  const answer = await fetch(`${suite.server.url}/api${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  if (answer.status !== 201) throw new Error(`${path} answered ${answer.status}`);
  return answer.json() as Promise<{ data: { slug: string } }>;
}

beforeAll(async () => {
  token = await adminToken(suite.server.url);
  for (let index = 0; index < PHOTOS; index++) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await photo(index))]), `photo-${String(index).padStart(2, '0')}.png`);
    form.append('path', '/local/photos/');
    await upload('/admin/fs/upload', form);
  }
  // Small, and straight on disk: hundreds of uploads would take long.
  const many = join(await localStorageRoot(suite.server, token), 'many');
  mkdirSync(many, { recursive: true });
  const tiny = await sharp({ create: { width: 96, height: 72, channels: 3, background: '#3a7' } }).png().toBuffer();
  for (let index = 0; index < MANY; index++) writeFileSync(join(many, tileName(index)), tiny);
});

/** The windowed grid of `/local/many`, every item listed. */
async function openManyInGrid(page: Page) {
  await loginAsAdmin(page, suite.server.url);
  await page.goto(`${suite.server.url}/mount-explorer/local/many`);
  const listbox = page.getByRole('listbox', { name: 'Files and folders' });
  await listbox.locator(`[role="option"][aria-setsize="${MANY}"]`).first().waitFor();
  await page.getByRole('button', { name: 'Grid view' }).click();
  return listbox;
}

const thumbnailPath = (url: string) => new URL(url).searchParams.get('path') ?? '';

/** The originals' URLs a page might fetch: downloads, previews, signed storage links. */
const isOriginal = (url: string) => /\/api\/(admin|user)\/fs\/(download|preview|file-link)|\/api\/local-storage\/|\/api\/file-view\//.test(url);

describe('thumbnails in the browser', () => {
  it(`the explorer's grid of ${PHOTOS} photos loads thumbnails only, and axe finds nothing serious in either theme`, async () => {
    const { page, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await loginAsAdmin(page, suite.server.url);
    await page.goto(`${suite.server.url}/mount-explorer/local/photos`);
    const listbox = page.getByRole('listbox', { name: 'Files and folders' });
    await listbox.getByRole('option').first().waitFor();
    await page.getByRole('button', { name: 'Grid view' }).click();

    const images = listbox.locator('img');
    // Scrolled to the end, every tile's thumbnail shows.
    await expect
      .poll(async () => {
        await images.last().scrollIntoViewIfNeeded().catch(() => undefined);
        return images.evaluateAll((all) => all.filter((image) => (image as HTMLImageElement).naturalWidth > 0).length);
      }, { timeout: 60_000 })
      .toBe(PHOTOS);
    const widths = await images.evaluateAll((all) => all.map((image) => (image as HTMLImageElement).naturalWidth));
    expect(Math.max(...widths)).toBeLessThanOrEqual(256);
    expect(requested.filter(isOriginal)).toEqual([]);
    const thumbnails = requested.filter((url) => url.includes('/api/fs-thumbnail?'));
    expect(new Set(thumbnails).size).toBe(PHOTOS);
    expect(thumbnails.every((url) => url.includes('size=grid'))).toBe(true);
    expect(requested.filter((url) => url.includes('/thumbnail-links')).length).toBeLessThanOrEqual(3);

    expect(await a11yInBothThemes(page, 'explorer grid')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a windowed grid shows every thumbnail as it scrolls, those a busy server turned away (429) asked for again', async () => {
    const { page, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 800 } });
    // Every third photo's first thumbnail request is answered as the server does when its line of makings is full
    // (the server test fills the real line): those tiles must ask again rather than keep their icon.
    const turnedAway = new Set<string>();
    await page.route(/\/api\/fs-thumbnail\?/, (route) => {
      const path = thumbnailPath(route.request().url());
      const index = Number(/(\d+)\.png$/.exec(path)?.[1]);
      if (index % 3 !== 0 || turnedAway.has(path)) return route.continue();
      turnedAway.add(path);
      const body = { code: 429, message: 'Too many thumbnails are being made; try again shortly', data: { error: 'rate_limited' }, success: false };
      return route.fulfill({ status: 429, headers: { 'Retry-After': '1' }, contentType: 'application/json', body: JSON.stringify(body) });
    });
    const listbox = await openManyInGrid(page);

    const seen = new Set<string>();
    for (;;) {
      await expect
        .poll(async () => {
          const screen = await tilesOnScreen(listbox);
          for (const path of screen.loaded) seen.add(path);
          return screen.visible.length > 0 && screen.loaded.length === screen.visible.length;
        }, { timeout: 30_000 })
        .toBe(true);
      if (seen.has(`/local/many/${tileName(MANY - 1)}`)) break;
      await scrollGridByScreen(listbox);
    }
    expect(seen.size).toBe(MANY);
    expect(await listbox.getByRole('option').count()).toBeLessThan(MANY);
    expect(turnedAway.size).toBeGreaterThanOrEqual(Math.floor(MANY / 3));
    expect(errors).toEqual([]);
  });

  it('cancels the picture of a tile that leaves the window before it has loaded', async () => {
    const { page, errors } = await newPerson(suite.browser, { viewport: { width: 1280, height: 800 } });
    // The first screen's pictures are held unanswered, as a server busy making them would.
    let holding = true;
    const held: Route[] = [];
    await page.route(/\/api\/fs-thumbnail\?/, (route) => (holding ? held.push(route) : route.continue()));
    const cancelled = new Set<string>();
    page.on('requestfailed', (request) => {
      if (request.url().includes('/api/fs-thumbnail?') && request.failure()?.errorText === 'net::ERR_ABORTED') cancelled.add(thumbnailPath(request.url()));
    });
    const listbox = await openManyInGrid(page);
    await expect.poll(() => held.length).toBeGreaterThanOrEqual(8);
    const firstScreen = new Set(held.map((route) => thumbnailPath(route.request().url())));

    // At the end of the folder the first screen's tiles are no longer drawn: their pictures are not wanted.
    holding = false;
    await listbox.evaluate((box) => box.scrollTo({ top: box.scrollHeight, behavior: 'instant' }));
    await listbox.locator(`[data-path$="/${tileName(MANY - 1)}"] img`).waitFor();
    await expect.poll(() => [...firstScreen].filter((path) => !cancelled.has(path))).toEqual([]);
    await Promise.all(held.map((route) => route.continue().catch(() => undefined)));
    expect(errors).toEqual([]);
  });

  it('a shared photo shows through its large thumbnail, with a link to the original', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await photo(3))], { type: 'image/png' }), 'holiday.png');
    const { data: share } = await upload('/upload', form);
    const { page, errors } = await newPerson(suite.browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${suite.server.url}/file/${share.slug}`);
    const picture = page.getByRole('img', { name: 'holiday.png' });
    await expect.poll(() => picture.evaluate((image) => (image as HTMLImageElement).naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await picture.evaluate((image) => (image as HTMLImageElement).currentSrc)).toMatch(/\/api\/file-thumbnail\//);
    const original = page.getByRole('link', { name: 'Open the original image' });
    expect(await original.getAttribute('href')).toMatch(/\/api\/file-view\//);
    expect(requested.filter((url) => url.includes('/api/file-view/'))).toEqual([]);
    expect(await a11yInBothThemes(page, 'share page')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
