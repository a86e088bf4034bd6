import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_NODE_ARGS } from '../../scripts/server-command.mjs';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { AxeResults, default as AxeCore } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { SETTLE_MS } from '../../src/lib/idle';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'e2e-admin-password';

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server process (benchmarks sample its memory). */
  pid: number;
  stop(): Promise<void>;
  /** kill -9: the process dies at once and its data folder stays, for a server started again on it. */
  kill(): Promise<void>;
}

/**
 * The production server (the built SPA and the bundled server of `npm start`) on a free port with an empty
 * temporary data folder, or on `keptDataDir` (which its stop leaves in place).
 */
export async function startServer(extraEnv: Record<string, string> = {}, keptDataDir?: string): Promise<RunningServer> {
  const dataDir = keptDataDir ?? mkdtempSync(join(tmpdir(), 'clipstash-e2e-'));
  const child: ChildProcess = spawn(process.execPath, SERVER_NODE_ARGS, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The start-up line is JSON: the URL ends at its closing quote.
      const match = /running at (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        // From now on the server's log lines are read and dropped: a pipe nobody reads would block its writes.
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    dataDir,
    pid: child.pid ?? 0,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** An admin token for the server at `baseUrl`, from the login API: set-up that needs no browser. */
export async function adminToken(baseUrl: string): Promise<string> {
  const login = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`admin login answered ${login.status}`);
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/** The folder of the built-in LOCAL storage on disk: a file written there is in the `/local` mount. */
export async function localStorageRoot(server: RunningServer, token: string): Promise<string> {
  const answer = (await (await fetch(`${server.url}/api/s3-configs`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    data: { id: string; storage_type: string }[];
  };
  const local = answer.data.find((config) => config.storage_type === 'LOCAL');
  if (!local) throw new Error('no LOCAL storage config');
  return join(server.dataDir, 'storage', local.id);
}

/**
 * Bytes held in Chromium's blob storage (the whole browser's), read from chrome://blob-internals in a page of its
 * own: blobs made by scripts, request bodies and responses read as blobs.
 */
export async function blobStorageBytes(context: BrowserContext): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto('chrome://blob-internals');
    const text = await page.evaluate(() => document.body.innerText);
    return [...text.matchAll(/Length: ([\d,]+)/g)].reduce((sum, [, length]) => sum + Number(length?.replace(/,/g, '')), 0);
  } finally {
    await page.close();
  }
}

/** Sets the max upload size (MB) through the settings API, as an admin. */
export async function setMaxUploadSizeMb(baseUrl: string, token: string, megabytes: number): Promise<void> {
  const settings = await fetch(`${baseUrl}/api/admin/system-settings`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ max_upload_size: megabytes }),
  });
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}`);
}

/** Debian's Chromium, as CI has it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The switches every test and bench runs Chromium with (headless is Playwright's own option). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium 156 renders its omnibox popups as WebUI pages, one per window, even headless: a renderer that took a
  // third to two thirds of a core all along each test. Chromium adds these to Playwright's own disabled features.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** A fresh person: own storage, English browser unless told otherwise. */
export async function newPerson(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context: BrowserContext = await browser.newContext({ locale: 'en-US', ...options });
  reportCspViolations(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

const cspViolations: string[] = [];

/**
 * Records every Content-Security-Policy violation in `context`'s pages and workers: Chromium reports each one
 * as a console error ("… violates the following Content Security Policy directive …").
 * useSuite fails the test that caused one.
 */
export function reportCspViolations(context: BrowserContext) {
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      cspViolations.push(`${message.location().url}: ${message.text()}`);
    }
  });
}

/** The CSP violations seen since the last call. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

export async function loginAsAdmin(page: Page, baseUrl: string, password = ADMIN_PASSWORD) {
  await page.goto(`${baseUrl}/admin`);
  await page.getByLabel('Username').fill(ADMIN_USERNAME);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Admin panel' }).waitFor();
}

/** Waits until every finite animation and transition of the page has ended (colours after a theme change, fades). */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Waits until the page has run the work it defers until it has settled (`whenSettled`, src/lib/idle.ts): queued the
 * same way after the page's own, so it runs after them.
 */
export async function settledWorkDone(page: Page): Promise<void> {
  await page.evaluate(
    (settleMs) =>
      new Promise<void>((resolve) => {
        setTimeout(() => requestIdleCallback(() => resolve(), { timeout: 2_000 }), Math.max(0, settleMs - performance.now()));
      }),
    SETTLE_MS,
  );
}

/**
 * Lets the first request to `url` through and holds the others until the answered function is called: a transfer
 * that has begun and cannot end, for a cancel to land in its middle. A held request the cancel aborted is dropped.
 */
export async function holdAllButFirst(context: BrowserContext, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen = 0;
  await context.route(url, async (route) => {
    if (seen++ > 0) await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** axe-core's script: the copy @axe-core/playwright would inject (its own dependency). */
const AXE_SOURCE: string = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))('axe-core').source;

type WithAxe = { axe: typeof AxeCore };

/**
 * Puts axe-core into `frame` unless an earlier scan of the same document did: evaluating its half a megabyte took
 * about as long as a scan itself, and @axe-core/playwright evaluates it twice in the page on every scan. A frame
 * that does not answer within a second (a PDF viewer, a sandboxed document) is left out, as @axe-core/playwright
 * leaves it; the page's own frame must take it.
 */
async function injectAxe(frame: Frame, required: boolean): Promise<void> {
  const inject = async () => {
    if (await frame.evaluate(() => typeof (window as unknown as Partial<WithAxe>).axe?.run === 'function')) return;
    await frame.evaluate(AXE_SOURCE);
    await frame.evaluate(() => (window as unknown as WithAxe).axe.configure({ allowedOrigins: ['<same_origin>'] }));
  };
  if (required) return inject();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
  await Promise.race([inject().catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/** axe-core on the current page: the serious and critical violations, described. */
export async function seriousA11yViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  // What is still fading in is checked as it ends: mid-animation, axe measures the contrast of half-transparent text.
  await animationsEnded(page);
  // axe runs in the page itself (@axe-core/playwright's legacy mode): its default opens a blank page (a renderer of
  // its own) to gather every run's results, which took three times as long. It does not look inside frames, which
  // here hold only a user's PDF or sandboxed HTML, never the app's own UI. Only violations are reported in full: the
  // rest is not read.
  await injectAxe(page.mainFrame(), true);
  for (const frame of page.frames()) if (frame !== page.mainFrame()) await injectAxe(frame, false);
  const results: AxeResults = await page.evaluate(
    (exclude) => (window as unknown as WithAxe).axe.run({ exclude, include: [] }, { resultTypes: ['violations'] }),
    exclude,
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * axe in the light and the dark theme; each violation says where (`label`) and in which theme. `exclude`: content
 * that is not the app's (a document's own pages, shown in a frame).
 */
export async function a11yInBothThemes(page: Page, label = '', exclude: string[] = []): Promise<string[]> {
  return a11yInThemes(page, ['light', 'dark'], label, exclude);
}

/** Whether screenshots are wanted: `SCREENSHOT_DIR` names where they go. Without it none are taken (CI's time). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;
export const SCREENSHOTS_WANTED = SCREENSHOT_DIR !== undefined;

/** A full-page screenshot into `SCREENSHOT_DIR/<area>/<name>.png`, only when screenshots are wanted. */
export async function screenshot(page: Page, area: string, name: string, { fullPage = true } = {}): Promise<void> {
  if (SCREENSHOT_DIR === undefined) return;
  mkdirSync(join(SCREENSHOT_DIR, area), { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, area, `${name}.png`), fullPage });
}

/**
 * Contrast depends on the theme, not on the language or the width: both themes are checked once (English, 1280 px),
 * the other three layouts in the dark one, unless screenshots of both are wanted.
 */
export const themesChecked = (locale: string, width: number) =>
  SCREENSHOTS_WANTED || (locale === 'en-US' && width === 1280) ? (['light', 'dark'] as const) : (['dark'] as const);

/** `a11yInBothThemes` in the themes given. */
export async function a11yInThemes(page: Page, colorSchemes: readonly ('light' | 'dark')[], label = '', exclude: string[] = []): Promise<string[]> {
  const report: string[] = [];
  for (const colorScheme of colorSchemes) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, colorScheme);
    report.push(...(await seriousA11yViolations(page, exclude)).map((violation) => `${label} (${colorScheme}) ${violation}`.trim()));
  }
  return report;
}

/** Set-up through the API, as the admin: a file in a mount folder. */
export async function seedMountFile(baseUrl: string, token: string, folder: string, name: string, content: string): Promise<void> {
  const body = new FormData();
  body.append('file', new Blob([content]), name);
  body.append('path', folder);
  const answer = await fetch(`${baseUrl}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body });
  if (answer.status !== 201) throw new Error(`seeding ${name} answered ${answer.status}`);
}

/** Opens the task manager, waits for the task `label` to end as `status`, closes it again; answers the row's text. */
export async function taskEnds(page: Page, label: string, status: 'Completed' | 'Cancelled' | 'Partly done', timeout = 120_000): Promise<string> {
  await page.getByRole('button', { name: /^Tasks/ }).click();
  const sheet = page.getByRole('dialog', { name: 'Task manager' });
  const row = sheet.getByRole('listitem').filter({ hasText: label }).first();
  await row.getByText(status, { exact: true }).waitFor({ timeout });
  const text = (await row.textContent()) ?? '';
  // Its close button, not Escape: a toast that appears as the task ends takes the Escape key first.
  await sheet.getByRole('button', { name: 'Close', exact: true }).click();
  await sheet.waitFor({ state: 'hidden' });
  return text;
}

/**
 * The page's and the header's controls smaller than 44 px on a side (buttons, tick boxes with their labels, sort
 * headers, links, the header's icon links and language select).
 */
export function smallTargets(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('main button, main [role="checkbox"], main input[type="checkbox"], main a, main select, header button, header a[aria-label], header select')]
      .map((element) => element.closest('label') ?? element)
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ element, box }) => `${element.tagName} "${element.getAttribute('aria-label') ?? element.textContent}" ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
}
