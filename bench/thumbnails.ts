import sharp from 'sharp';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { adminToken, launchBrowser, loginAsAdmin, startServer, type RunningServer } from '../tests/e2e/harness';
import { MiB } from './measure';
import { residentBytes, samplePeak } from './processes';
import { benchSize } from './size';

const FOLDER = '/local/photos';

/** A 4000 × 3000 JPEG with the grain and gradients of a photo (noise, enlarged): a few MiB, as a phone's. */
async function photo(width: number, height: number): Promise<Buffer> {
  const grain = await sharp({ create: { width: Math.round(width / 8), height: Math.round(height / 8), channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  return sharp(grain).resize(width, height, { kernel: 'cubic' }).jpeg({ quality: 92 }).toBuffer();
}

async function seed(server: RunningServer, token: string, count: number, bytes: Buffer) {
  const names = Array.from({ length: count }, (_, index) => `IMG_${String(index).padStart(4, '0')}.jpg`);
  const upload = async () => {
    for (let name = names.shift(); name; name = names.shift()) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      form.append('path', FOLDER);
      const answer = await fetch(`${server.url}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      if (answer.status !== 201) throw new Error(`upload answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, upload));
}

/** `large` thumbnails of every photo, cold, six requests at a time as a browser sends them: thumbnails a second. */
async function makeAll(server: RunningServer, token: string, count: number): Promise<number> {
  const left = Array.from({ length: count }, (_, index) => index);
  const started = performance.now();
  const ask = async () => {
    for (let index = left.shift(); index !== undefined; index = left.shift()) {
      const path = `${FOLDER}/IMG_${String(index).padStart(4, '0')}.jpg`;
      const answer = await fetch(`${server.url}/api/admin/fs/thumbnail?path=${encodeURIComponent(path)}&size=large`, { headers: { Authorization: `Bearer ${token}` } });
      if (answer.status !== 200) throw new Error(`thumbnail answered ${answer.status}`);
      await answer.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 6 }, ask));
  return count / ((performance.now() - started) / 1000);
}

/**
 * `npm run bench -- thumbnails`: a folder of photos (BENCH_THUMBNAIL_PHOTOS, default 500, 4000 × 3000 JPEG) in the
 * explorer's grid, on a cold thumbnail cache: bytes on the wire for the first screen and to the end of the folder
 * against the originals' bytes, the first screen's time, thumbnails made a second, the server's peak RSS.
 */
export async function thumbnails() {
  buildIfStale();
  const count = benchSize(500, 6, 'BENCH_THUMBNAIL_PHOTOS');
  const [width, height] = [benchSize(4000, 400), benchSize(3000, 300)];
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const token = await adminToken(server.url);
    const original = await photo(width, height);
    await seed(server, token, count, original);
    const peakRss = samplePeak(() => residentBytes(server.pid));

    // The grid first, while no grid thumbnail exists: what a visitor of a new folder waits for.
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/mount-explorer${FOLDER}`);
    await page.getByRole('button', { name: 'Grid view' }).click();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength));
    await page.reload();
    const started = performance.now();
    const listbox = page.getByRole('listbox', { name: 'Files and folders' });
    const shown = () =>
      listbox.locator('img').evaluateAll((all) => all.filter((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0).length);
    // Tiles the visitor sees: their middle is on screen and not clipped by the list's scrolling box.
    const visible = () =>
      listbox.locator('[role="option"]').evaluateAll(
        (all) =>
          all.filter((option) => {
            const box = option.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return hit !== null && option.contains(hit);
          }).length,
      );
    const giveUpAt = Date.now() + 300_000;
    const inTime = () => {
      if (Date.now() > giveUpAt) throw new Error('the thumbnails did not all show within 5 minutes');
    };
    await listbox.locator('img').first().waitFor();
    for (;;) {
      const [loaded, onScreen] = await Promise.all([shown(), visible()]);
      if (loaded >= Math.min(onScreen, count)) break;
      inTime();
      await page.waitForTimeout(20);
    }
    const firstScreenMs = performance.now() - started;
    const firstScreenBytes = bytes;
    for (;;) {
      await listbox.locator('[role="option"]').last().scrollIntoViewIfNeeded();
      if ((await shown()) >= count) break;
      inTime();
      await page.waitForTimeout(100);
    }
    const allBytes = bytes;
    await context.close();

    const perSecond = await makeAll(server, token, count);
    const originals = original.length * count;
    console.log(`thumbnails_photos: ${count}`);
    console.log(`thumbnails_original_mb: ${(originals / MiB).toFixed(1)}`);
    console.log(`thumbnails_first_screen_ms: ${Math.round(firstScreenMs)}`);
    console.log(`thumbnails_first_screen_kb: ${Math.round(firstScreenBytes / 1024)}`);
    console.log(`thumbnails_scrolled_kb: ${Math.round(allBytes / 1024)}`);
    console.log(`thumbnails_scrolled_share_of_originals: ${(allBytes / originals).toFixed(4)}`);
    console.log(`thumbnails_large_made_per_second_cold: ${perSecond.toFixed(1)}`);
    console.log(`thumbnails_server_peak_rss_mb: ${Math.round(peakRss() / MiB)}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}
