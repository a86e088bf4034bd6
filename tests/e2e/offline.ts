import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { adminToken } from './harness';

/** The service worker is installed, has precached the shell and controls the page. */
export async function controlledByServiceWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
}

// Polled from here, not with page.waitForFunction: that takes the Promise an async predicate returns as its
// (truthy) answer, and so returned at once, before anything was cached.
const POLL = { timeout: 20_000, interval: 200 };

/** Waits until one of the service worker's caches (its precache or its runtime cache) holds a matching asset. */
export async function assetCached(page: Page, name: RegExp) {
  await expect
    .poll(
      () =>
        page.evaluate(async (source) => {
          for (const cacheName of await caches.keys()) {
            const keys = await (await caches.open(cacheName)).keys();
            if (keys.some((request) => new RegExp(source).test(new URL(request.url).pathname))) return true;
          }
          return false;
        }, name.source),
      POLL,
    )
    .toBe(true);
}

/** Waits until the page's offline database holds the answer for paste `slug`. */
export async function pasteInOfflineDatabase(page: Page, slug: string) {
  await expect.poll(() => offlineDatabaseKeys(page, 'pastes'), POLL).toContain(slug);
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

/** Whose answers the page's offline database holds, across its four stores, each owner once ([] before it exists). */
export async function offlineDatabaseOwners(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((info) => info.name === 'clipstash-offline')) return [];
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open('clipstash-offline');
      open.onsuccess = () => {
        const names = ['pastes', 'files', 'directories', 'settings'];
        const transaction = open.result.transaction(names);
        const owners = new Set<string>();
        for (const name of names) {
          const all = transaction.objectStore(name).getAll();
          all.onsuccess = () => all.result.forEach((entry: { owner: string }) => owners.add(entry.owner));
        }
        transaction.oncomplete = () => resolve([...owners].sort());
        transaction.onerror = () => reject(new Error(String(transaction.error)));
        open.result.close();
      };
      open.onerror = () => reject(new Error(String(open.error)));
    });
  });
}
