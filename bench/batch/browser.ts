import type { Browser, Page } from 'playwright-core';
import { recordLongTasks, signIn } from '../transfer/page';
import { QuietChromium } from '../transfer/quiet-chromium';
import { PageErrors } from './page-errors';

const MiB = 1024 * 1024;

/** How one folder upload in the explorer went. */
export interface BrowserBatch {
  /** Bench's clock: from sending DOM.setFileInputFiles to the page's answer that every task row has finished. */
  seconds: number;
  /** Page's clock: from the input's `input` event (the files handed to the page) to the rows all finished. */
  pageSeconds: number;
  /** Page's clock: from just before the files were set to the input's `input` event (Chromium listing the folder). */
  inputDelayMs: number;
  /** Long tasks (> 50 ms) of the page's main thread from just before the files were set to the end, as `duration at +offset`. */
  longTasks: string[];
  /** The page's JS heap in use (CDP Runtime.getHeapUsage `usedSize`) right after the upload, and after a full GC. */
  heapMb: number;
  heapAfterGcMb: number;
  /** Console errors, uncaught errors and failed requests of the page and its workers during the run. */
  errors: string[];
  /** This upload's task rows by status, e.g. "1 completed" or "1990 completed, 10 failed". */
  rows: string;
}

/** An upload that did not end within its time: what the page showed then. */
export class BatchStalled extends Error {}

interface Limits {
  /** Fails when the task rows have not changed for this long. */
  stallSeconds: number;
  /** Fails after this long in all. */
  timeoutSeconds: number;
  /** Whether failed requests are watched for (CDP Network domain in the page and its workers: see PageErrors). */
  network: boolean;
}

/**
 * In the page, before the files are set: marks the task rows already there (an earlier upload's), starts
 * watching the rows (a MutationObserver sees a change at once; Playwright's own waiting polls), and records the
 * instant the folder input's `input` event comes. `window.__benchBatch.done` resolves once at least one new
 * `[data-task-status]` row exists and no new row is in a status other than completed / partial / failed /
 * cancelled: it works for one row per file and for one row per folder alike. Answers the page's clock now.
 * (Plain source text: the page runs it as it is.)
 */
const INSTALL = `(() => {
  for (const row of document.querySelectorAll('[data-task-status]')) row.setAttribute('data-bench-earlier', '');
  const input = document.querySelector('input[type="file"][webkitdirectory]');
  if (!input) throw new Error('no folder input on the page');
  const fresh = '[data-task-status]:not([data-bench-earlier])';
  const unfinished = fresh + ':not([data-task-status="completed"]):not([data-task-status="partial"]):not([data-task-status="failed"]):not([data-task-status="cancelled"])';
  const state = { inputAt: undefined, endAt: undefined, lastChange: performance.now() };
  let resolveDone;
  state.done = new Promise((resolve) => { resolveDone = resolve; });
  const check = () => {
    if (state.endAt !== undefined || state.inputAt === undefined) return;
    if (!document.querySelector(fresh) || document.querySelector(unfinished)) return;
    state.endAt = performance.now();
    observer.disconnect();
    resolveDone({ inputAt: state.inputAt, endAt: state.endAt });
  };
  const observer = new MutationObserver(() => { state.lastChange = performance.now(); check(); });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-task-status'] });
  input.addEventListener('input', () => { state.inputAt = performance.now(); state.lastChange = state.inputAt; }, { capture: true, once: true });
  window.__benchBatch = state;
  return performance.now();
})()`;

/** In the page: this upload's rows by status, the Tasks button's label, and how long ago the rows last changed. */
const STATUS = `(() => {
  const counts = {};
  for (const row of document.querySelectorAll('[data-task-status]:not([data-bench-earlier])')) {
    const status = row.getAttribute('data-task-status');
    counts[status] = (counts[status] || 0) + 1;
  }
  const state = window.__benchBatch;
  return {
    rows: Object.entries(counts).map(([status, count]) => count + ' ' + status).join(', ') || 'no rows',
    tasksButton: document.querySelector('button[aria-label^="Tasks ("]')?.getAttribute('aria-label') ?? 'no Tasks button',
    sinceChangeMs: Math.round(performance.now() - state.lastChange),
    inputSeen: state.inputAt !== undefined,
  };
})()`;

interface PageStatus {
  rows: string;
  tasksButton: string;
  sinceChangeMs: number;
  inputSeen: boolean;
}

/**
 * The browser side: the real app in Chromium (QuietChromium), signed in as the admin. Each upload opens the
 * explorer at the target folder and the task manager panel (where the task rows are), as a person who watches a
 * batch does, with Playwright; then Playwright disconnects and the measured part runs over the quiet Chromium's
 * own DevTools pipe: the folder is given to the "Upload folder" button's hidden `<input webkitdirectory>` with
 * DOM.setFileInputFiles (what Playwright's setInputFiles(directory) sends), and the page says when the rows have
 * all finished. (Playwright enables the Network domain in the page and in every worker, and Chromium then reports
 * each request's events to it: thousands of requests' worth of CPU time a person's browser does not spend.)
 */
export class BatchBrowser {
  private connection: Connection | undefined;

  private constructor(
    private readonly chromium: QuietChromium,
    private readonly serverUrl: string,
  ) {}

  static async open(serverUrl: string): Promise<BatchBrowser> {
    const chromium = await QuietChromium.launch();
    try {
      const browser = new BatchBrowser(chromium, serverUrl);
      const { page } = await browser.connected();
      await signIn(page, serverUrl);
      return browser;
    } catch (error) {
      await chromium.close();
      throw error;
    }
  }

  /** Uploads the folder at `localFolder` (on this machine's disk) into `into` (a mount folder ending in `/`, which exists). */
  async upload(localFolder: string, into: string, limits: Limits): Promise<BrowserBatch> {
    await this.openExplorer(into);
    const { cdp } = this.chromium;
    const targetId = await this.chromium.pageTarget(this.serverUrl);
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const evaluate = async <T>(expression: string, awaitPromise = false): Promise<T> => {
      const answer = await cdp.send<{ result: { value: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate',
        { expression, awaitPromise, returnByValue: true },
        sessionId,
      );
      if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
      return answer.result.value;
    };
    const errors = await PageErrors.watch(cdp, sessionId, { network: limits.network });
    try {
      const pageBefore = await evaluate<number>(INSTALL);
      const input = await cdp.send<{ result: { objectId?: string } }>(
        'Runtime.evaluate',
        { expression: `document.querySelector('input[type="file"][webkitdirectory]')` },
        sessionId,
      );
      if (!input.result.objectId) throw new Error('no folder input on the page');

      let ended: { inputAt: number; endAt: number; at: number } | undefined;
      let failed: unknown;
      const started = performance.now();
      const done = evaluate<{ inputAt: number; endAt: number }>('window.__benchBatch.done', true).then(
        (value) => (ended = { ...value, at: performance.now() }),
        (error: unknown) => (failed = error),
      );
      await cdp.send('DOM.setFileInputFiles', { objectId: input.result.objectId, files: [localFolder] }, sessionId);
      while (!ended) {
        await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (ended) break;
        if (failed) throw failed;
        const status = await evaluate<PageStatus>(STATUS);
        const elapsed = (performance.now() - started) / 1000;
        const stalled = status.sinceChangeMs > limits.stallSeconds * 1000;
        if (stalled || elapsed > limits.timeoutSeconds) {
          const seen = errors.errors.length ? `; ${errors.errors.length} errors, the first: ${errors.errors.slice(0, 3).join(' | ')}` : '';
          throw new BatchStalled(
            `${stalled ? `no task row changed for ${Math.round(status.sinceChangeMs / 1000)} s` : `not done after ${Math.round(elapsed)} s`} ` +
              `(${Math.round(elapsed)} s in all${status.inputSeen ? '' : ', the input never fired'}): rows ${status.rows}; ${status.tasksButton}${seen}`,
          );
        }
      }
      const { endAt, inputAt, at } = ended;
      const heapMb = (await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, sessionId)).usedSize / MiB;
      await cdp.send('HeapProfiler.collectGarbage', {}, sessionId);
      const heapAfterGcMb = (await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, sessionId)).usedSize / MiB;
      const longTasks = (await evaluate<{ start: number; duration: number }[]>('window.__longTasks ?? []'))
        .filter((task) => task.start >= pageBefore && task.start <= endAt)
        .map((task) => `${Math.round(task.duration)} ms at +${Math.round(task.start - pageBefore)} ms`);
      const { rows } = await evaluate<PageStatus>(STATUS);
      return {
        seconds: (at - started) / 1000,
        pageSeconds: (endAt - inputAt) / 1000,
        inputDelayMs: inputAt - pageBefore,
        longTasks,
        heapMb,
        heapAfterGcMb,
        errors: errors.errors,
        rows,
      };
    } finally {
      await errors.stop(sessionId);
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  }

  /**
   * Playwright (connected again if it was not) opens the explorer at `folder` with the task manager panel open and
   * cleared of finished tasks (an earlier upload's, kept by the journal), then disconnects.
   */
  private async openExplorer(folder: string) {
    const { browser, page } = await this.connected();
    const segments = folder.split('/').filter(Boolean).map(encodeURIComponent);
    await page.goto(`${this.serverUrl}/mount-explorer/${segments.join('/')}`);
    // Enabled once the folder's listing says it can be written to.
    const uploadFolder = await page.getByRole('button', { name: 'Upload folder', exact: true }).elementHandle();
    if (!uploadFolder) throw new Error('no Upload folder button');
    await uploadFolder.waitForElementState('enabled');
    // The task manager loads once the page has settled.
    await page.locator('button[aria-label^="Tasks ("]').click();
    const panel = page.getByRole('dialog', { name: 'Task manager' });
    await panel.waitFor();
    const clear = panel.getByRole('button', { name: 'Clear finished' });
    if (await clear.isEnabled()) {
      await clear.click();
      await page.waitForFunction(() => !document.querySelector('[data-task-status="completed"], [data-task-status="partial"], [data-task-status="failed"], [data-task-status="cancelled"]'));
    }
    await browser.close();
    this.connection = undefined;
  }

  /** Playwright connected to the quiet Chromium's one page, its long tasks recorded from the next load on. */
  private async connected(): Promise<Connection> {
    if (this.connection) return this.connection;
    const browser = await this.chromium.connect();
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    await recordLongTasks(context);
    const page = context.pages()[0] ?? (await context.newPage());
    this.connection = { browser, page };
    return this.connection;
  }

  async close() {
    try {
      await this.connection?.browser.close();
    } finally {
      await this.chromium.close();
    }
  }
}

interface Connection {
  browser: Browser;
  page: Page;
}
