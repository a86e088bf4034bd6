import type { Browser, Page } from 'playwright-core';
import { s3rverConfigRequest } from '../../tests/fixtures/s3rver';
import { longTasksBetween, recordLongTasks, signIn } from '../transfer/page';
import { QuietChromium } from '../transfer/quiet-chromium';
import type { S3rverProcess } from '../transfer/s3rver-process';
import { WorkerProbe } from '../transfer/worker-probe';

export interface BrowserCopy {
  seconds: number;
  /** Long tasks (> 50 ms) of the page's main thread during the copy, as `duration at +offset`. */
  longTasks: string[];
  /** The task's row once it ended, e.g. "… 200 done, 0 skipped, 0 failed". */
  row: string;
}

/**
 * The browser side: the real app and its worker engine in Chromium (QuietChromium), signed in as the admin in the
 * mount explorer, with s3rver mounted at `/s3`. Each copy is set up as a person makes it (select, Copy to…, pick
 * the folder) by Playwright, which then disconnects: the click on Copy here and the wait until the task manager
 * counts no active task again run in the page, timed there, with no DevTools client attached but the worker heap's
 * probe. (Playwright reports every request of the page and its workers to itself: that cost the copy of 200 files
 * CPU time on 2 shared cores which a person's browser does not spend.)
 */
export class BrowserCopier {
  private peakHeap = 0;

  private constructor(
    private readonly chromium: QuietChromium,
    private connection: Connection,
    private readonly probe: WorkerProbe,
    private readonly serverUrl: string,
  ) {}

  static async open(serverUrl: string, s3: S3rverProcess): Promise<BrowserCopier> {
    const chromium = await QuietChromium.launch();
    try {
      const connection = await connect(chromium);
      const probe = await BrowserCopier.setUp(connection.page, chromium, serverUrl, s3);
      return new BrowserCopier(chromium, connection, probe, serverUrl);
    } catch (error) {
      await chromium.close();
      throw error;
    }
  }

  /** Signs the admin in, mounts s3rver at `/s3`, and attaches the probe to the engine's worker. */
  private static async setUp(page: Page, chromium: QuietChromium, serverUrl: string, s3: S3rverProcess): Promise<WorkerProbe> {
    const headers = { Authorization: `Bearer ${await signIn(page, serverUrl)}` };
    const created = await page.request.post(`${serverUrl}/api/s3-configs`, { data: s3rverConfigRequest(s3.endpoint, s3.bucket), headers });
    if (created.status() !== 201) throw new Error(`storage config answered ${created.status()}`);
    const configId = ((await created.json()) as { data: { id: string } }).data.id;
    const mount = await page.request.post(`${serverUrl}/api/admin/mounts`, {
      data: { name: 'Bench', storage_type: 'S3', storage_config_id: configId, mount_path: '/s3' },
      headers,
    });
    if (mount.status() !== 201) throw new Error(`mount answered ${mount.status()}`);
    return WorkerProbe.overPipe(chromium.cdp, await chromium.pageTarget(serverUrl));
  }

  /** The transfer worker's heap after a full GC; undefined when the worker cannot be reached. */
  async workerHeap(): Promise<number | undefined> {
    return this.probe.heapAfterGc().catch(() => undefined);
  }

  /** The highest worker heap sampled during the copies so far. */
  get workerHeapPeak(): number {
    return this.peakHeap;
  }

  /** Copies `/local/<folder>/<name>` into the folder `/s3/<into>/` (which exists). */
  async copy(folder: string, name: string, into: string): Promise<BrowserCopy> {
    const { page } = this.connection;
    await page.goto(`${this.serverUrl}/mount-explorer/local/${folder}`);
    const listbox = page.getByRole('listbox', { name: 'Files and folders' });
    await listbox.locator(`[role="option"][data-path$="/${name}"], [role="option"][data-path$="/${name}/"]`).click();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Copy 1 items to/ });
    // The picker opens in the folder shown (/local/<folder>/): up to the root a level at a time, then down into /s3/<into>/.
    const shown = ['local', ...folder.split('/')];
    for (let depth = shown.length - 1; depth >= 0; depth--) {
      await dialog.getByRole('button', { name: 'Up one level' }).click();
      await dialog.getByText(`Folder: ${shown.slice(0, depth).join(' / ') || 'Root'}`, { exact: true }).waitFor();
    }
    for (const step of ['s3', into]) await dialog.getByRole('list', { name: 'Folders' }).getByRole('button', { name: step, exact: true }).click();
    await dialog.getByText(`Folder: s3 / ${into}`).waitFor();
    const button = await dialog.getByRole('button', { name: 'Copy here' }).elementHandle();
    if (!button) throw new Error('no Copy here button');
    // Enabled once the folder's listing says it can be written to.
    await page.waitForFunction((element) => !(element as HTMLButtonElement).disabled, button);
    await button.evaluate((element) => element.setAttribute('data-bench-copy', ''));
    const target = await this.chromium.pageTarget(this.serverUrl);
    await this.connection.browser.close();

    const stopSampling = this.probe.samplePeak();
    const { pageStart, pageEnd } = await this.chromium.evaluate<{ pageStart: number; pageEnd: number }>(target, `(${clickAndWait.toString()})()`);
    this.peakHeap = Math.max(this.peakHeap, stopSampling());

    this.connection = await connect(this.chromium);
    const longTasks = await longTasksBetween(this.connection.page, pageStart, pageEnd);
    await this.connection.page.getByRole('button', { name: /^Tasks/ }).click();
    const row = (await this.connection.page.getByRole('dialog', { name: 'Task manager' }).getByRole('listitem').first().textContent()) ?? '';
    await this.connection.page.keyboard.press('Escape');
    return { seconds: (pageEnd - pageStart) / 1000, longTasks, row };
  }

  async close() {
    try {
      await this.connection.browser.close();
    } finally {
      await this.chromium.close();
    }
  }
}

interface Connection {
  browser: Browser;
  page: Page;
}

/** Playwright connected to the quiet Chromium's one page, its long tasks recorded from the next load on. */
async function connect(chromium: QuietChromium): Promise<Connection> {
  const browser = await chromium.connect();
  const context = browser.contexts()[0];
  if (!context) throw new Error('Chromium has no default context');
  await recordLongTasks(context);
  const page = context.pages()[0] ?? (await context.newPage());
  return { browser, page };
}

/**
 * In the page: clicks Copy here and resolves once the task manager counts no active task again, with both instants
 * on the page's clock. A MutationObserver sees the count change at once. (Run from its source text: no named inner
 * functions, which tsx would wrap in a helper the page lacks.)
 */
const clickAndWait = () =>
  new Promise<{ pageStart: number; pageEnd: number }>((resolve) => {
    let started = false;
    const observer = new MutationObserver(() => {
      const label = document.querySelector('button[aria-label^="Tasks ("]')?.getAttribute('aria-label') ?? '';
      const active = Number(/\((\d+)/.exec(label)?.[1] ?? 0);
      if (active > 0) started = true;
      if (!started || active > 0) return;
      observer.disconnect();
      resolve({ pageStart, pageEnd: performance.now() });
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label', 'data-bench-waited'] });
    const pageStart = performance.now();
    document.querySelector<HTMLButtonElement>('[data-bench-copy]')?.click();
    // A task that fails at once may never be counted as active (its row then tells what happened): after two
    // seconds, an attribute change has the observer look again.
    setTimeout(() => {
      started = true;
      document.body.setAttribute('data-bench-waited', '');
    }, 2000);
  });
