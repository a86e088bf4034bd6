import type { Browser, BrowserContext, Page } from 'playwright-core';
import { s3rverConfigRequest } from '../../tests/fixtures/s3rver';
import { longTasksBetween, openSignedIn } from '../transfer/page';
import { recordRequests, type TimedRequest } from '../transfer/phases';
import type { S3rverProcess } from '../transfer/s3rver-process';
import { WorkerProbe } from '../transfer/worker-probe';

export interface BrowserCopy {
  seconds: number;
  /** Long tasks (> 50 ms) of the page's main thread during the copy, as `duration at +offset`. */
  longTasks: string[];
  /** The task's row once it ended, e.g. "… 200 done, 0 skipped, 0 failed". */
  row: string;
  /** Where the time went: the requests of the copy by kind. */
  requests: string;
}

/** What a request of a copy does, from its URL. */
const kindOf = (method: string, url: string) =>
  /\/api\/local-storage\//.test(url)
    ? 'read'
    : /batch-copy-commit/.test(url)
      ? 'commit'
      : /\/batch-copy/.test(url)
        ? 'plan'
        : /multipart\/sign/.test(url)
          ? 'sign'
          : /multipart\/complete/.test(url)
            ? 'complete'
            : method === 'PUT'
              ? 'write'
              : 'other';

/** Per kind of request: how many, and their mean time. */
function describeRequests(requests: TimedRequest[]): string {
  const byKind = new Map<string, number[]>();
  for (const request of requests) {
    if (request.end === undefined) continue;
    const kind = kindOf(request.method, request.url);
    byKind.set(kind, [...(byKind.get(kind) ?? []), request.end - request.start]);
  }
  return [...byKind].map(([kind, times]) => `${times.length} ${kind} (${Math.round(times.reduce((sum, time) => sum + time, 0) / times.length)} ms each)`).join(', ');
}

/**
 * The browser side: the real app and its worker engine in Chromium, signed in as the admin in the mount explorer,
 * with s3rver mounted at `/s3`. Each copy is made as a person makes it (select, Copy to…, pick the folder, Copy
 * here) and timed in the page from that click until the task manager counts no active task again.
 */
export class BrowserCopier {
  private peakHeap = 0;
  private readonly requests: TimedRequest[] = [];

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly probe: WorkerProbe,
    private readonly serverUrl: string,
  ) {
    recordRequests(page, this.requests);
  }

  static async open(serverUrl: string, s3: S3rverProcess): Promise<BrowserCopier> {
    const { browser, context, page, token } = await openSignedIn(serverUrl);
    const headers = { Authorization: `Bearer ${token}` };
    const created = await page.request.post(`${serverUrl}/api/s3-configs`, { data: s3rverConfigRequest(s3.endpoint, s3.bucket), headers });
    if (created.status() !== 201) throw new Error(`storage config answered ${created.status()}`);
    const configId = ((await created.json()) as { data: { id: string } }).data.id;
    const mount = await page.request.post(`${serverUrl}/api/admin/mounts`, {
      data: { name: 'Bench', storage_type: 'S3', storage_config_id: configId, mount_path: '/s3' },
      headers,
    });
    if (mount.status() !== 201) throw new Error(`mount answered ${mount.status()}`);
    const probe = await WorkerProbe.attachToEngine(context, page);
    return new BrowserCopier(browser, context, page, probe, serverUrl);
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
    const { page } = this;
    await page.goto(`${this.serverUrl}/mount-explorer/local/${folder}`);
    const listbox = page.getByRole('listbox', { name: 'Files and folders' });
    await listbox.locator(`[role="option"][data-path$="/${name}"], [role="option"][data-path$="/${name}/"]`).click();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Copy 1 items to/ });
    for (const step of ['s3', into]) await dialog.getByRole('list', { name: 'Folders' }).getByRole('button', { name: step, exact: true }).click();
    await dialog.getByText(`Folder: s3 / ${into}`).waitFor();
    const button = await dialog.getByRole('button', { name: 'Copy here' }).elementHandle();
    if (!button) throw new Error('no Copy here button');
    // Enabled once the folder's listing says it can be written to.
    await page.waitForFunction((element) => !(element as HTMLButtonElement).disabled, button);

    this.requests.length = 0;
    const stopSampling = this.probe.samplePeak();
    // Timed in the page: a MutationObserver sees the task count change at once, where Playwright's own waiting
    // polls up to every 500 ms. (No named inner functions: tsx would wrap them in a helper the page lacks.)
    const { pageStart, pageEnd } = await button.evaluate(
      (element: HTMLElement) =>
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
          element.click();
          // A task that fails at once may never be counted as active (its row then tells what happened): after
          // two seconds, an attribute change has the observer look again.
          setTimeout(() => {
            started = true;
            document.body.setAttribute('data-bench-waited', '');
          }, 2000);
        }),
    );
    this.peakHeap = Math.max(this.peakHeap, stopSampling());
    const longTasks = await longTasksBetween(page, pageStart, pageEnd);
    await page.getByRole('button', { name: /^Tasks/ }).click();
    const row = (await page.getByRole('dialog', { name: 'Task manager' }).getByRole('listitem').first().textContent()) ?? '';
    await page.keyboard.press('Escape');
    return { seconds: (pageEnd - pageStart) / 1000, longTasks, row, requests: describeRequests(this.requests) };
  }

  async close() {
    await this.context.close();
    await this.browser.close();
  }
}
