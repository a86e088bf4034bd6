import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPerson } from './harness';
import { useSuite } from './suite';

/** A visit to the reference page that records CSP violations and every request leaving this server. */
async function openDocs(browser: Browser, baseUrl: string, options: { colorScheme: 'light' | 'dark'; themeMode?: string }) {
  const person = await newPerson(browser, { colorScheme: options.colorScheme });
  const outside: string[] = [];
  person.page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseUrl) && !url.startsWith('data:')) outside.push(url);
  });
  await person.context.addInitScript((themeMode) => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    if (themeMode) localStorage.setItem('themeMode', themeMode);
  }, options.themeMode);
  await person.page.goto(`${baseUrl}/api/docs`);
  await person.page.locator('.opblock-tag', { hasText: 'Pastes' }).first().waitFor();
  return { ...person, outside };
}

const cspViolations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
const theme = (page: Page) =>
  page.evaluate(() => ({
    dark: document.documentElement.classList.contains('dark-mode'),
    background: getComputedStyle(document.body).backgroundColor,
  }));

describe('the API reference page', () => {
  const suite = useSuite();

  it('shows every group, finds an operation with its schema, and runs it against this server', async () => {
    const { context, page, errors, outside } = await openDocs(suite.browser, suite.server.url, { colorScheme: 'light' });
    // A long document is rendered as the reader scrolls, so each group is found as a reader would: by the filter.
    const filter = page.getByPlaceholder('Filter by tag or path');
    for (const group of ['Pastes', 'File shares', 'Mount file system', 'Auth and keys', 'Expenses', 'System']) {
      await filter.fill(group);
      await page.locator('.opblock-tag', { hasText: group }).first().waitFor({ state: 'visible' });
    }
    await filter.fill('');

    // Find the operation a script needs first: creating a paste.
    const create = page.locator('.opblock-post', { has: page.locator('[data-path="/api/paste"]') });
    await create.locator('.opblock-summary').first().click();
    await create.getByText('Request body').waitFor();
    await create.getByText('Create a paste').first().waitFor();
    await expect(create.getByText('Admin, or an API key with the text permission').isVisible()).resolves.toBe(true);

    // "Try it out" on the health check reaches the real server.
    await filter.fill('System');
    const health = page.locator('.opblock-get', { has: page.locator('[data-path="/api/health"]') });
    await health.locator('.opblock-summary').first().click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await health.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    await expect(health.locator('.live-responses-table').textContent()).resolves.toContain('"status": "ok"');

    expect(await theme(page)).toEqual({ dark: false, background: 'rgb(246, 247, 249)' });
    expect(await cspViolations(page)).toEqual([]);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('follows the system\'s dark preference, and the theme stored by the app over it', async () => {
    const dark = await openDocs(suite.browser, suite.server.url, { colorScheme: 'dark' });
    expect(await theme(dark.page)).toEqual({ dark: true, background: 'rgb(17, 20, 24)' });
    expect(await cspViolations(dark.page)).toEqual([]);
    await dark.context.close();

    const stored = await openDocs(suite.browser, suite.server.url, { colorScheme: 'dark', themeMode: 'light' });
    expect(await theme(stored.page)).toEqual({ dark: false, background: 'rgb(246, 247, 249)' });
    await stored.context.close();

    const chosen = await openDocs(suite.browser, suite.server.url, { colorScheme: 'light', themeMode: 'dark' });
    expect((await theme(chosen.page)).dark).toBe(true);
    await chosen.context.close();
  });
});
