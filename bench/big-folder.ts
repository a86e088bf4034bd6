import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { adminToken, launchBrowser, localStorageRoot, loginAsAdmin, startServer } from '../tests/e2e/harness';
import { MiB } from './measure';
import { benchSize } from './size';

/** What the page records from its start: long tasks, and when the first option of the list appeared. */
function watchPage() {
  const seen = { longTasks: [] as number[], firstRowAt: 0 };
  (window as unknown as { __bench: typeof seen }).__bench = seen;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_, observer) => {
    if (!document.querySelector('[role="listbox"] [role="option"]')) return;
    seen.firstRowAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

interface Figures {
  firstRowMs: number;
  listedMs: number;
  longTasks: number[];
  heapMb: number;
  scrollEndMs: number;
  drawnRows: number;
}

/** The folder opened in a fresh page: first row, whole listing, heap, then a scroll to the end until its last item shows. */
async function openBigFolder(page: Page, url: string, count: number): Promise<Figures> {
  const cdp = await page.context().newCDPSession(page);
  const started = Date.now();
  await page.goto(url);
  const listbox = page.getByRole('listbox', { name: 'Files and folders' });
  await listbox.locator(`[role="option"][aria-setsize="${count}"]`).first().waitFor({ timeout: 300_000 });
  // A CSS selector, not a role: Playwright polls it in the page, and a role query walks the whole DOM each time,
  // long tasks of its own that the bench would count against the page.
  await page.locator('[role="status"]').filter({ hasText: 'Listing…' }).waitFor({ state: 'detached', timeout: 300_000 });
  const listedMs = Date.now() - started;
  const { firstRowAt, answeredAt } = await page.evaluate(() => {
    const firstPage = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/fs/list?')) as PerformanceResourceTiming;
    return { firstRowAt: (window as unknown as { __bench: { firstRowAt: number } }).__bench.firstRowAt, answeredAt: firstPage.responseEnd };
  });
  await cdp.send('HeapProfiler.collectGarbage');
  const heapMb = (await cdp.send('Runtime.getHeapUsage')).usedSize / MiB;
  const scrollEndMs = await listbox.evaluate(async (box, last) => {
    const begun = performance.now();
    box.scrollTop = box.scrollHeight;
    while (!box.querySelector(`[role="option"][aria-posinset="${last}"]`)) await new Promise(requestAnimationFrame);
    return performance.now() - begun;
  }, count);
  const drawnRows = await listbox.locator('[role="option"]').count();
  const longTasks = await page.evaluate(() => (window as unknown as { __bench: { longTasks: number[] } }).__bench.longTasks);
  await cdp.detach();
  return { firstRowMs: firstRowAt - answeredAt, listedMs, longTasks, heapMb, scrollEndMs, drawnRows };
}

/**
 * `npm run bench -- big-folder`: a LOCAL folder of 10,000 and of 100,000 empty files (BENCH_BIG_FOLDER_FILES: one
 * size of your own) opened in the explorer's list: the first row's time after the first page of the listing
 * answered, the whole listing's time, long tasks, the page's heap after a GC, and a scroll to the last item.
 */
export async function bigFolder() {
  const fixed = benchSize(0, 400, 'BENCH_BIG_FOLDER_FILES');
  const sizes = fixed > 0 ? [fixed] : [10_000, 100_000];
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const root = await localStorageRoot(server, await adminToken(server.url));
    for (const count of sizes) {
      // Written straight into the storage's folder: the bench measures the listing, not uploads.
      const folder = join(root, `big-${count}`);
      mkdirSync(folder, { recursive: true });
      for (let index = 0; index < count; index++) writeFileSync(join(folder, `file-${String(index).padStart(6, '0')}.txt`), '');
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await loginAsAdmin(page, server.url);
      await page.addInitScript(watchPage);
      const figures = await openBigFolder(page, `${server.url}/mount-explorer/local/big-${count}`, count);
      await context.close();
      const prefix = `big_folder_${count}`;
      console.error(`${prefix}: long tasks ${figures.longTasks.map((ms) => Math.round(ms)).join(', ') || 'none'}; ${figures.drawnRows} rows drawn at the end`);
      console.log(`${prefix}_first_row_ms: ${Math.round(figures.firstRowMs)}`);
      console.log(`${prefix}_listed_ms: ${figures.listedMs}`);
      console.log(`${prefix}_long_tasks: ${figures.longTasks.length}`);
      console.log(`${prefix}_longest_task_ms: ${Math.round(Math.max(0, ...figures.longTasks))}`);
      console.log(`${prefix}_page_heap_mb: ${figures.heapMb.toFixed(1)}`);
      console.log(`${prefix}_scroll_to_end_ms: ${Math.round(figures.scrollEndMs)}`);
      console.log(`${prefix}_rows_drawn: ${figures.drawnRows}`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
