import { launchBrowser, loginAsAdmin, startServer } from '../../tests/e2e/harness';
import { benchSize, SMOKE_FILES } from '../size';

/**
 * In the page: a folder of `count` files of 1–4 KB in ten sub-folders in the origin's private file system (the same
 * kind of handle the folder picker answers: the picker itself is the browser's own dialog), handed to the app as the
 * picker's answer, and a long-task observer. (Plain source text: the page runs it as it is.)
 */
const seed = (count: number) => `(async () => {
  const root = await navigator.storage.getDirectory();
  const picked = await root.getDirectoryHandle('batch', { create: true });
  for (let index = 0; index < ${count}; index++) {
    const sub = await picked.getDirectoryHandle('sub' + (index % 10), { create: true });
    const writable = await (await sub.getFileHandle('note-' + index + '.txt', { create: true })).createWritable();
    await writable.write('x'.repeat(1024 + (index * 37) % 3072));
    await writable.close();
  }
  window.showDirectoryPicker = async () => picked;
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(Math.round(entry.duration));
  }).observe({ type: 'longtask' });
})()`;

/**
 * `npm run bench -- batch-picker`: the explorer's "Upload folder" where the browser has the File System Access API.
 * The folder (BENCH_FILES, default 2000) is a handle the transfer worker walks, so the page never holds the files:
 * prints the time from the click to the task's end on the bench's clock, files a second, and the page's long tasks.
 */
export async function batchPicker() {
  const files = Math.max(1, Math.floor(benchSize(2000, SMOKE_FILES, 'BENCH_FILES')));
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await loginAsAdmin(page, server.url);
    await page.goto(`${server.url}/mount-explorer/local`);
    await page.getByRole('listbox', { name: 'Files and folders' }).or(page.getByText('This folder is empty')).first().waitFor();
    await page.evaluate(seed(files));
    // The task panel's first opening (its code and first render) is not the upload's: it is opened once before.
    await page.getByRole('button', { name: /^Tasks/ }).click();
    await page.keyboard.press('Escape');
    await page.evaluate('window.__longTasks.length = 0');
    const started = Date.now();
    await page.getByRole('button', { name: 'Upload folder' }).click();
    await page.getByRole('button', { name: /^Tasks/ }).click();
    await page.locator('li[data-task-type="upload"][data-task-status="completed"]').waitFor({ timeout: Math.max(300, files / 4) * 1000 });
    const seconds = (Date.now() - started) / 1000;
    const longTasks = (await page.evaluate('window.__longTasks')) as number[];
    console.log(`picker_files: ${files}`);
    console.log(`picker_seconds: ${seconds.toFixed(2)}`);
    console.log(`picker_files_per_s: ${(files / seconds).toFixed(1)}`);
    console.log(`picker_main_thread_long_tasks: ${longTasks.length}${longTasks.length ? ` (${longTasks.join(', ')} ms)` : ''}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}
