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
 * One real server (fresh data folder) and one Chromium for a test file, started before its tests and stopped
 * after; with `s3`, a real s3rver too. A test during which a page broke the Content-Security-Policy fails.
 */
export function useSuite(env: Record<string, string> = {}, options: { s3?: boolean } = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(env), launchBrowser()]);
    if (options.s3) suite.s3 = await startS3rver();
  });
  afterEach(() => {
    expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    await suite.s3?.stop();
  });
  return suite;
}
