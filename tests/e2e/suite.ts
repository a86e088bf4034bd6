import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startS3rver, type RunningS3rver } from '../fixtures/s3rver';
import { launchBrowser, startServer, takeCspViolations, type RunningServer } from './harness';

export interface Suite {
  server: RunningServer;
  browser: Browser;
  /** Only when asked for with `{ s3: true }`. */
  s3: RunningS3rver;
}

/**
 * The worker's Chromium, shared by the files it runs one after another (the e2e project does not isolate them, so
 * this module lives on): a launch and a close cost each file two to three seconds of CPU. A browser that went away is
 * launched again; Playwright ends the last one with the worker.
 */
let workerBrowser: Promise<Browser> | undefined;

function sharedBrowser(): Promise<Browser> {
  workerBrowser ??= launchBrowser().then(
    (browser) => {
      browser.on('disconnected', () => (workerBrowser = undefined));
      return browser;
    },
    // A launch that failed is tried again by the next file, not handed to every file after it.
    (error: unknown) => {
      workerBrowser = undefined;
      throw error;
    },
  );
  return workerBrowser;
}

/**
 * One real server (fresh data folder) and Chromium for a test file, started before its tests; after them the server
 * is stopped and the contexts the file left open are closed, so that the next file finds the browser bare. With
 * `s3`, a real s3rver too. A test during which a page broke the Content-Security-Policy fails.
 */
export function useSuite(env: Record<string, string> = {}, options: { s3?: boolean } = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(env), sharedBrowser()]);
    if (options.s3) suite.s3 = await startS3rver();
  });
  afterEach(() => {
    expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await Promise.all(suite.browser?.contexts().map((context) => context.close()) ?? []);
    await suite.server?.stop();
    await suite.s3?.stop();
  });
  return suite;
}
