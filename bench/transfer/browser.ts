import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { s3rverConfigRequest } from '../../tests/fixtures/s3rver';
import { longTasksBetween, openSignedIn } from './page';
import { describePhases, recordRequests, type TimedRequest } from './phases';
import { MainThreadTrace } from './trace';
import type { S3rverProcess } from './s3rver-process';
import { WorkerProbe } from './worker-probe';

export interface BrowserRound {
  seconds: number;
  /** Long tasks (> 50 ms) of the page's main thread during the upload, as `duration at +offset`. */
  longTasks: string[];
  /** Where the time went (the requests of the page and its worker). */
  phases: string;
  /** What the page's main thread did meanwhile (CDP Performance metrics). */
  mainThread: string;
  /** The page main thread's busy time during the upload (CDP `TaskDuration`), in ms. */
  mainThreadMs: number;
  /** With BENCH_TRACE=1: the main thread's tasks by kind, from a Chromium trace (which adds its own overhead). */
  trace: string[];
}

/**
 * The browser side: the real app and its worker engine in Chromium, signed in as the admin on /upload with
 * s3rver as the default storage. Each upload picks the file from disk (as a person does: a disk-backed File) and
 * is timed in the page from the click on Upload to its task row turning completed.
 */
export class BrowserUploader {
  private readonly requests: TimedRequest[] = [];
  private peakHeap = 0;

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly probe: WorkerProbe,
    private readonly token: string,
    private readonly serverUrl: string,
  ) {
    recordRequests(page, this.requests);
  }

  static async open(serverUrl: string, s3: S3rverProcess): Promise<BrowserUploader> {
    const { browser, context, page, token } = await openSignedIn(serverUrl);
    const created = await page.request.post(`${serverUrl}/api/s3-configs`, {
      data: s3rverConfigRequest(s3.endpoint, s3.bucket, { is_default: true, is_public: true }),
      headers: { Authorization: `Bearer ${token}` },
    });
    if (created.status() !== 201) throw new Error(`storage config answered ${created.status()}`);
    await page.goto(`${serverUrl}/upload`);
    await page.getByTestId('drop-zone').waitFor();
    const probe = await WorkerProbe.attachToEngine(context, page);
    return new BrowserUploader(browser, context, page, probe, token, serverUrl);
  }

  /** The transfer worker's JS heap after a full GC; undefined when the worker cannot be reached. */
  async workerHeap(): Promise<number | undefined> {
    try {
      return await this.probe.heapAfterGc();
    } catch {
      return undefined;
    }
  }

  /** The highest worker heap sampled during the uploads so far. */
  get workerHeapPeak(): number {
    return this.peakHeap;
  }

  async upload(path: string, size: number): Promise<BrowserRound> {
    const { page } = this;
    await page.getByTestId('file-input').setInputFiles(path);
    const button = await page.getByRole('button', { name: 'Upload', exact: true }).elementHandle();
    if (!button) throw new Error('no Upload button');

    const stopSampling = this.probe.samplePeak();
    const metrics = await this.context.newCDPSession(page);
    await metrics.send('Performance.enable');
    const readMetrics = async () => Object.fromEntries((await metrics.send('Performance.getMetrics')).metrics.map((metric) => [metric.name, metric.value]));
    const before = await readMetrics();
    this.requests.length = 0;
    const trace = process.env.BENCH_TRACE ? await MainThreadTrace.start(this.browser, page) : undefined;
    const started = performance.now();
    // Timed in the page: a MutationObserver sees the new completed row at once, where Playwright's own waiting
    // polls up to every 500 ms.
    const { pageStart, pageEnd } = await button.evaluate(
      (element: HTMLElement) =>
        new Promise<{ pageStart: number; pageEnd: number }>((resolve) => {
          // The rows there before (an earlier upload's) are marked, so that only this upload's row counts.
          // (No named inner functions: tsx would wrap them in a helper the page does not have.)
          for (const row of document.querySelectorAll('li[data-task-status]')) row.setAttribute('data-bench-earlier', '');
          const observer = new MutationObserver(() => {
            if (!document.querySelector('li[data-task-status="completed"]:not([data-bench-earlier])')) return;
            observer.disconnect();
            resolve({ pageStart, pageEnd: performance.now() });
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-task-status'] });
          const pageStart = performance.now();
          element.click();
        }),
    );
    this.peakHeap = Math.max(this.peakHeap, stopSampling());
    const after = await readMetrics();
    const traced = (await trace?.stop(join(tmpdir(), `clipstash-transfer-trace-${Date.now()}.json`))) ?? [];
    await metrics.detach();
    const seconds = (pageEnd - pageStart) / 1000;
    const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    const mainThreadMs = Math.round(delta('TaskDuration') * 1000);
    const longTasks = await longTasksBetween(page, pageStart, pageEnd);

    const files = (await (await page.request.get(`${this.serverUrl}/api/admin/files?limit=1`, { headers: { Authorization: `Bearer ${this.token}` } })).json()) as {
      data: { items: { size: number }[] };
    };
    if (files.data.items[0]?.size !== size) throw new Error(`the share has ${files.data.items[0]?.size} bytes, not ${size}`);
    return {
      seconds,
      longTasks,
      phases: describePhases(this.requests, started),
      mainThreadMs,
      trace: traced,
      mainThread:
        `${mainThreadMs} ms of tasks (script ${Math.round(delta('ScriptDuration') * 1000)} ms), ` +
        `${delta('LayoutCount')} layouts, ${delta('RecalcStyleCount')} style recalculations`,
    };
  }

  async close() {
    await this.context.close();
    await this.browser.close();
  }
}
