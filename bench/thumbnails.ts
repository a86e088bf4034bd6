import sharp from 'sharp';
import { adminToken, launchBrowser, loginAsAdmin, startServer, type RunningServer } from '../tests/e2e/harness';
import { scrollGridByScreen, tilesOnScreen } from '../tests/e2e/thumbnail-grid';
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

const nameOf = (index: number) => `IMG_${String(index).padStart(4, '0')}.jpg`;

async function seed(server: RunningServer, token: string, count: number, bytes: Buffer) {
  const names = Array.from({ length: count }, (_, index) => nameOf(index));
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
      const path = `${FOLDER}/${nameOf(index)}`;
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
    const giveUpAt = Date.now() + 300_000;
    /** Waits until every tile on screen shows its thumbnail; answers their paths. */
    const screenShown = async () => {
      for (;;) {
        const screen = await tilesOnScreen(listbox);
        if (screen.visible.length > 0 && screen.loaded.length === screen.visible.length) return screen.loaded;
        if (Date.now() > giveUpAt) throw new Error(`${screen.visible.length - screen.loaded.length} of the ${screen.visible.length} tiles on screen showed no thumbnail within 5 minutes`);
        await page.waitForTimeout(20);
      }
    };
    const seen = new Set(await screenShown());
    const firstScreenMs = performance.now() - started;
    const firstScreenBytes = bytes;
    // To the end a screen at a time, each screen waited for, as a person looks through a folder.
    const last = `${FOLDER}/${nameOf(count - 1)}`;
    while (!seen.has(last)) {
      if (Date.now() > giveUpAt) throw new Error(`the end of the folder was not reached within 5 minutes (${seen.size} of ${count} thumbnails seen)`);
      await scrollGridByScreen(listbox);
      for (const path of await screenShown()) seen.add(path);
    }
    if (seen.size !== count) throw new Error(`scrolled to the end, ${seen.size} of ${count} thumbnails were seen`);
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
