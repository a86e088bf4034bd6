import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, loginAsAdmin, newPerson } from '../../tests/e2e/harness';

declare global {
  interface Window {
    __longTasks?: { start: number; duration: number }[];
  }
}

/**
 * Chromium with one person signed in as the admin, every long task of the page's main thread recorded from before
 * the app's code runs. `BENCH_REDUCED_MOTION=1` runs the page with prefers-reduced-motion, to tell rendering cost
 * from transfer cost.
 */
export async function openSignedIn(serverUrl: string): Promise<{ browser: Browser; context: BrowserContext; page: Page; token: string }> {
  const browser = await launchBrowser();
  const { context, page } = await newPerson(browser, process.env.BENCH_REDUCED_MOTION ? { reducedMotion: 'reduce' } : {});
  await recordLongTasks(context);
  return { browser, context, page, token: await signIn(page, serverUrl) };
}

/** Signs `page` in as the admin; answers the admin token the app keeps. */
export async function signIn(page: Page, serverUrl: string): Promise<string> {
  await loginAsAdmin(page, serverUrl);
  return (await page.evaluate(() => localStorage.getItem('admin_token'))) ?? '';
}

/** Every page of `context` loaded from now on records its main thread's long tasks from before the app's code runs. */
export async function recordLongTasks(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const tasks: { start: number; duration: number }[] = [];
    window.__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The long tasks (> 50 ms) that started between two instants of the page's clock, as `duration at +offset`. */
export async function longTasksBetween(page: Page, start: number, end: number): Promise<string[]> {
  return (await page.evaluate(() => window.__longTasks ?? []))
    .filter((task) => task.start >= start && task.start <= end)
    .map((task) => `${Math.round(task.duration)} ms at +${Math.round(task.start - start)} ms`);
}
