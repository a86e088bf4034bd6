import type { Browser } from 'playwright-core';
import { SETTLE_MS } from '../src/lib/idle';
import { benchSize } from './size';

/** What one cold load of a page cost the browser, up to network idle. */
export interface PageLoad {
  /** Script bytes on the wire (CDP `encodedDataLength`: compressed body + headers). */
  scriptTransferredKb: number;
  /** Script bytes after decoding. */
  scriptDecodedKb: number;
  fcpMs: number;
  longTasks: number;
  longTaskMs: number;
  /** Script bytes on the wire once the page has settled and loaded what it defers (src/lib/idle.ts). */
  scriptSettledKb: number;
  /** Long tasks from the start until the page has settled and run what it defers. */
  settledLongTasks: number;
}

/** How long after network idle the deferred work of a page has surely run: its settling time and idle timeout. */
const SETTLED_AFTER_MS = SETTLE_MS + 2_000;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** One cold load in a fresh browser context: empty HTTP cache, no service worker; measured at network idle, then settled. */
export async function coldLoad(browser: Browser, url: string): Promise<PageLoad> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Set<string>();
  let transferred = 0;
  let decoded = 0;
  const decodedById = new Map<string, number>();
  const inFlight = new Set<string>();
  cdp.on('Network.requestWillBeSent', (event) => inFlight.add(event.requestId));
  cdp.on('Network.loadingFailed', (event) => inFlight.delete(event.requestId));
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.add(event.requestId);
  });
  cdp.on('Network.dataReceived', (event) => {
    decodedById.set(event.requestId, (decodedById.get(event.requestId) ?? 0) + event.dataLength);
  });
  cdp.on('Network.loadingFinished', (event) => {
    inFlight.delete(event.requestId);
    if (!scripts.has(event.requestId)) return;
    transferred += event.encodedDataLength;
    decoded += decodedById.get(event.requestId) ?? 0;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const longTasksSoFar = () => page.evaluate(() => [...(window as unknown as { __longTasks: number[] }).__longTasks]);
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1);
  const longTasks = await longTasksSoFar();
  const transferredAtIdle = transferred;
  const decodedAtIdle = decoded;
  // A smoke run only walks the steps: it need not wait for the deferred work.
  await page.waitForTimeout(benchSize(SETTLED_AFTER_MS, 0));
  // Network idle again (Playwright's load state stays reached once it was): no request for half a second, waited
  // for 10 s at most.
  const giveUpAt = Date.now() + 10_000;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 500 && Date.now() < giveUpAt) {
    if (inFlight.size > 0) quietSince = Date.now();
    await page.waitForTimeout(50);
  }
  const settledLongTasks = await longTasksSoFar();
  await context.close();
  return {
    scriptTransferredKb: kb(transferredAtIdle),
    scriptDecodedKb: kb(decodedAtIdle),
    fcpMs: Math.round(fcp),
    longTasks: longTasks.length,
    longTaskMs: Math.round(longTasks.reduce((sum, ms) => sum + ms, 0)),
    scriptSettledKb: kb(transferred),
    settledLongTasks: settledLongTasks.length,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Each figure the median of `runs` cold loads, printed as `name_figure: value` lines. */
export async function reportColdLoads(browser: Browser, name: string, url: string, runs = 3) {
  const loads: PageLoad[] = [];
  for (let i = 0; i < runs; i++) loads.push(await coldLoad(browser, url));
  const figure = (key: keyof PageLoad) => median(loads.map((load) => load[key]));
  console.log(`${name}_script_transferred_kb: ${figure('scriptTransferredKb')}`);
  console.log(`${name}_script_decoded_kb: ${figure('scriptDecodedKb')}`);
  console.log(`${name}_fcp_ms: ${figure('fcpMs')}`);
  console.log(`${name}_long_tasks: ${figure('longTasks')}`);
  console.log(`${name}_long_task_ms: ${figure('longTaskMs')}`);
  console.log(`${name}_script_settled_kb: ${figure('scriptSettledKb')}`);
  console.log(`${name}_settled_long_tasks: ${figure('settledLongTasks')}`);
}
