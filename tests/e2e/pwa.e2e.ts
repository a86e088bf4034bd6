import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, newPerson, reportCspViolations, seriousA11yViolations, startServer, type RunningServer } from './harness';
import { assetCached, controlledByServiceWorker, createPaste, pasteInOfflineDatabase } from './offline';
import { useSuite } from './suite';

const suite = useSuite();

const DAY_MS = 24 * 60 * 60 * 1000;

/** An installable app needs a profile of its own (an incognito context never is): a persistent context. */
async function launchProfile(): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'clipstash-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    locale: 'en-US',
    // Offer installation without first waiting for "user engagement" (a click and 30 s on the page).
    args: [...CHROMIUM_ARGS, '--bypass-app-banner-engagement-checks'],
  });
  reportCspViolations(context);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

describe('installable app', () => {
  it('has a manifest with names, colours and icons, and Chromium reports it installable', async () => {
    const { context, page, close } = await launchProfile();
    try {
      await page.goto(`${suite.server.url}/`);
      await controlledByServiceWorker(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);

      const manifestResponse = await fetch(`${suite.server.url}/manifest.webmanifest`);
      expect(manifestResponse.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      const manifest = (await manifestResponse.json()) as Record<string, unknown>;
      for (const worker of ['sw.js', 'courier-sw.js']) expect((await fetch(`${suite.server.url}/${worker}`)).headers.get('cache-control')).toBe('no-cache');
      expect(manifest).toMatchObject({ name: 'Clipstash', short_name: 'Clipstash', start_url: '/', display: 'standalone' });
      expect(manifest.theme_color).toMatch(/^#/);
      expect(manifest.background_color).toMatch(/^#/);
      const icons = manifest.icons as Array<{ sizes: string; purpose: string; src: string }>;
      expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
      for (const icon of icons) {
        const response = await fetch(`${suite.server.url}${icon.src}`);
        expect(response.headers.get('content-type')).toBe('image/png');
      }
      const themeColors = await page.locator('meta[name="theme-color"]').evaluateAll((metas) =>
        metas.map((meta) => meta.getAttribute('media')),
      );
      expect(themeColors).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);
    } finally {
      await close();
    }
  });

  it('offers installation; "later" keeps the prompt hidden for 7 days, then it comes back', async () => {
    const { page, close } = await launchProfile();
    try {
      await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
      await page.goto(`${suite.server.url}/`);
      const prompt = page.getByRole('region', { name: 'Install Clipstash' });
      // Nothing is offered to someone who has not done anything on the site yet.
      await page.getByRole('link', { name: 'Upload' }).waitFor();
      await page.clock.runFor(6_000);
      expect(await prompt.count()).toBe(0);
      await page.getByRole('heading', { level: 1 }).first().click();
      await prompt.waitFor({ timeout: 20_000 });
      // It takes its own room after the page's content: nothing of the page lies under it.
      const box = await prompt.boundingBox();
      const main = await page.locator('main').boundingBox();
      expect(box && main && box.y).toBeGreaterThanOrEqual((main?.y ?? 0) + (main?.height ?? 0));
      expect(await seriousA11yViolations(page)).toEqual([]);
      const clickedAt = await page.evaluate(() => Date.now());
      await prompt.getByRole('button', { name: 'Later' }).click();
      await prompt.waitFor({ state: 'detached' });
      const dismissedAt = Number(await page.evaluate(() => localStorage.getItem('install_prompt_dismissed_at')));
      expect(dismissedAt - clickedAt).toBeGreaterThanOrEqual(0);
      expect(dismissedAt - clickedAt).toBeLessThan(10_000);

      // A new visit within the 7 days: the browser offers again, the app stays quiet.
      await page.reload();
      await page.getByRole('link', { name: 'Upload' }).waitFor();
      await page.clock.runFor(6_000);
      expect(await prompt.count()).toBe(0);

      // A minute short of 7 days after the dismissal: still hidden after a few 5 s checks.
      const sinceDismissal = (await page.evaluate(() => Date.now())) - dismissedAt;
      await page.clock.fastForward(7 * DAY_MS - 60_000 - sinceDismissal);
      await page.clock.runFor(15_000);
      expect(await prompt.count()).toBe(0);

      // Past 7 days: the next 5 s check shows it again.
      await page.clock.fastForward(60_000);
      await page.clock.runFor(5_000);
      // This visit has not done anything yet: the prompt waits for the first click.
      expect(await prompt.count()).toBe(0);
      await page.getByRole('heading', { level: 1 }).first().click();
      await prompt.waitFor();
      await prompt.getByRole('button', { name: 'Install' }).waitFor();
    } finally {
      await close();
    }
  });

  it("offers installation on a visitor's first page too, a shared paste whose app code loads only once it has settled", async () => {
    const slug = await createPaste(suite.server.url, { content: 'Install me from here.', slug: 'install-from-share-e2e' });
    const { page, close } = await launchProfile();
    try {
      await page.goto(`${suite.server.url}/paste/${slug}`);
      await page.getByText('Install me from here.').waitFor();
      // Chromium makes its offer once per page load, soon after the load event: well before the settled page loads
      // the install prompt's machine. The offer must still be there when it does.
      await page.waitForFunction(() => performance.now() > 6_000, null, { timeout: 20_000, polling: 250 });
      await page.getByText('Install me from here.').click();
      const prompt = page.getByRole('region', { name: 'Install Clipstash' });
      await prompt.getByRole('button', { name: 'Install' }).waitFor({ timeout: 10_000 });
    } finally {
      await close();
    }
  });
});

describe('offline', () => {
  it('is served compressed, and the service worker precaches the decoded bytes (the offline test below runs on them)', async () => {
    const slug = await createPaste(suite.server.url, { content: 'Compressed on the wire.', slug: 'compressed-e2e' });
    const { page, context, errors } = await newPerson(suite.browser);
    const encodings = new Map<string, string>();
    page.on('response', async (response) => {
      const path = new URL(response.url()).pathname;
      if (/^\/assets\/index-[\w-]+\.(?:js|css)$|^\/paste\//.test(path)) {
        encodings.set(path, (await response.allHeaders())['content-encoding'] ?? 'identity');
      }
    });
    await page.goto(`${suite.server.url}/paste/${slug}`);
    await page.getByText('Compressed on the wire.').waitFor();
    // The page, the entry script and the style sheet all came compressed (brotli or gzip, as Chromium asked).
    expect([...encodings.keys()].filter((path) => path.startsWith('/assets/'))).toHaveLength(2);
    for (const [path, encoding] of encodings) expect([path, encoding]).toEqual([path, expect.stringMatching(/^(?:br|gzip)$/)]);

    await controlledByServiceWorker(page);
    const script = [...encodings.keys()].find((path) => path.endsWith('.js')) ?? '';
    const precached = await page.evaluate(async (path) => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const hit = (await cache.keys()).find((request) => new URL(request.url).pathname === path);
        if (hit) return (await (await cache.match(hit))?.text())?.length;
      }
      return undefined;
    }, script);
    const plain = await fetch(`${suite.server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(precached).toBe((await plain.text()).length);

    // API calls and uploads go past the service worker (static routing); assets still go through it.
    const routed = await page.evaluate(async (asset) => {
      performance.clearResourceTimings();
      await (await fetch('/api/health')).text();
      await (await fetch('/api/health', { method: 'PUT' })).text();
      await (await fetch(asset)).text();
      return performance.getEntriesByType('resource').map((entry) => [new URL(entry.name).pathname, (entry.toJSON() as { workerMatchedSourceType?: string }).workerMatchedSourceType]);
    }, script);
    expect(routed).toEqual([
      ['/api/health', 'network'],
      ['/api/health', 'network'],
      [script, ''],
    ]);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the badge, serves a paste opened before from the cache, and a page never loaded falls back', async () => {
    const slug = await createPaste(suite.server.url, {
      content: '# Offline notes\n\nStill here without a network.',
      remark: 'Offline notes',
      slug: 'offline-e2e',
    });
    const { page, context, errors } = await newPerson(suite.browser);
    const pasteUrl = `${suite.server.url}/paste/${slug}`;
    await page.goto(pasteUrl);
    await page.getByText('Still here without a network.').waitFor();
    await controlledByServiceWorker(page);
    await assetCached(page, /\/paste-view-[\w-]+\.js$/);
    // The API answer went to the offline database (version 2, four stores).
    await pasteInOfflineDatabase(page, slug);

    await context.setOffline(true);
    const badge = page.getByRole('status').getByText('Offline mode');
    await badge.waitFor();

    // A page whose code was never loaded: the offline fallback page and a 3 s toast.
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.getByRole('heading', { name: 'This page is temporarily unavailable' }).waitFor();
    const toast = page.getByText('Page unavailable, check the network').first();
    await toast.waitFor();
    const toastShownAt = Date.now();
    for (const name of ['Back to home', 'Back to previous page', 'Retry']) {
      await page.getByRole('button', { name }).waitFor();
    }
    expect(await seriousA11yViolations(page)).toEqual([]); // the fallback page, the badge and the toast
    await toast.waitFor({ state: 'hidden', timeout: 8_000 });
    expect(Date.now() - toastShownAt).toBeGreaterThan(2_000);

    // Back to the paste: its data comes from the offline cache.
    await page.getByRole('button', { name: 'Back to previous page' }).click();
    await page.waitForURL(pasteUrl);
    await page.getByText('Still here without a network.').waitFor();
    expect(await badge.isVisible()).toBe(true);

    await context.setOffline(false);
    await badge.waitFor({ state: 'detached' });

    // A cold start without a network: the precached shell, the cached page chunk, the cached answer.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('region', { name: 'Shared content' }).getByText('Still here without a network.').waitFor();
    await page.goto(`${suite.server.url}/upload`);
    await page.getByRole('heading', { name: 'This page is temporarily unavailable' }).waitFor();

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'File upload' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('new version', () => {
  it('a newer build served to the same browser shows the update prompt; "update now" lands on it', async () => {
    // The "new deploy": the same build with a version marker in index.html and, so, a new precache revision.
    const nextBuild = mkdtempSync(join(tmpdir(), 'clipstash-e2e-next-build-'));
    cpSync('dist', nextBuild, { recursive: true });
    const indexHtml = join(nextBuild, 'index.html');
    writeFileSync(indexHtml, readFileSync(indexHtml, 'utf8').replace('<head>', '<head><meta name="clipstash-build" content="next" />'));
    const swJs = join(nextBuild, 'sw.js');
    const sw = readFileSync(swJs, 'utf8');
    const nextSw = sw.replace(/("revision":")[0-9a-f]+(","url":"index\.html")/, '$1e2e0next0revision$2');
    expect(nextSw).not.toBe(sw);
    writeFileSync(swJs, nextSw);

    const first = await startServer();
    const port = new URL(first.url).port;
    let second: RunningServer | undefined;
    const { page, context, errors } = await newPerson(suite.browser);
    try {
      await page.goto(`${first.url}/`);
      await controlledByServiceWorker(page);
      const marker = page.locator('meta[name="clipstash-build"]');
      expect(await marker.count()).toBe(0);

      await first.stop();
      second = await startServer({ PORT: port, STATIC_DIR: nextBuild });
      expect(second.url).toBe(first.url);

      await page.reload(); // the navigation makes the browser look for a new service worker
      const prompt = page.getByRole('region', { name: 'New version available' });
      await prompt.waitFor({ timeout: 20_000 });
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.evaluate(() => ((window as { beforeUpdate?: boolean }).beforeUpdate = true));
      await prompt.getByRole('button', { name: 'Update now' }).click();
      await page.waitForFunction(() => !(window as { beforeUpdate?: boolean }).beforeUpdate, null, { timeout: 20_000 });
      await page.getByRole('link', { name: 'Upload' }).waitFor();
      expect(await marker.getAttribute('content')).toBe('next');
      expect(await prompt.count()).toBe(0);

      // The new worker is the one in charge now: offline, its own precached shell is the new one.
      await context.setOffline(true);
      await page.reload();
      await page.getByRole('link', { name: 'Upload' }).waitFor();
      expect(await marker.getAttribute('content')).toBe('next');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await second?.stop();
      rmSync(nextBuild, { recursive: true, force: true });
    }
  });
});
