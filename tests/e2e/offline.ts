import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { adminToken } from './harness';

/** The service worker is installed, has precached the shell and controls the page. */
export async function controlledByServiceWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
}

/** Waits until the service worker's runtime cache holds a build asset whose name matches. */
export async function assetCached(page: Page, name: RegExp) {
  await page.waitForFunction(
    async (source) => {
      const cache = await caches.open('clipstash-assets');
      return (await cache.keys()).some((request) => new RegExp(source).test(new URL(request.url).pathname));
    },
    name.source,
    { timeout: 20_000, polling: 200 },
  );
}

/** Waits until the page's offline database (version 2, four stores) holds the answer for paste `slug`. */
export async function pasteInOfflineDatabase(page: Page, slug: string) {
  await page.waitForFunction(
    async (key) => {
      // Never the first to open it: a probe would create an empty database and hold up the app's own upgrade.
      if (!(await indexedDB.databases()).some((info) => info.name === 'clipstash-offline')) return false;
      return new Promise<boolean>((resolve) => {
        const open = indexedDB.open('clipstash-offline');
        open.onsuccess = () => {
          const db = open.result;
          const stores = ['pastes', 'files', 'directories', 'settings'].every((name) => db.objectStoreNames.contains(name));
          if (!stores) {
            db.close();
            resolve(false);
            return;
          }
          const get = db.transaction('pastes').objectStore('pastes').get(key);
          get.onsuccess = () => resolve(typeof get.result?.cachedAt === 'number');
          get.onerror = () => resolve(false);
          db.close();
        };
        open.onerror = () => resolve(false);
      });
    },
    slug,
    { polling: 200, timeout: 20_000 },
  );
}

/** A paste created by the admin through the API; returns its slug. */
export async function createPaste(baseUrl: string, body: Record<string, unknown>): Promise<string> {
  const created = await fetch(`${baseUrl}/api/paste`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await adminToken(baseUrl)}` },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { data: { slug: string } }).data.slug;
}

/** The keys the page's offline database holds in `store` ([] before the app has created it). */
export async function offlineDatabaseKeys(page: Page, store: 'pastes' | 'files'): Promise<string[]> {
  return page.evaluate(async (name) => {
    // Never the first to open it: a probe would create an empty database and hold up the app's own upgrade.
    if (!(await indexedDB.databases()).some((info) => info.name === 'clipstash-offline')) return [];
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open('clipstash-offline');
      open.onsuccess = () => {
        const keys = open.result.transaction(name).objectStore(name).getAllKeys();
        keys.onsuccess = () => resolve(keys.result.map(String));
        keys.onerror = () => reject(new Error(String(keys.error)));
        open.result.close();
      };
      open.onerror = () => reject(new Error(String(open.error)));
    });
  }, store);
}
