// The service worker (built by vite-plugin-pwa, strategy injectManifest). What it does, and what it leaves alone:
// - precaches the app shell: index.html, the files it loads, the language catalogs, the icons and the manifest;
// - answers navigations from the network, and with the precached index.html when the network fails (offline);
// - caches every other hashed build asset the first time it is loaded (cache first: the names change with the
//   content), so that a page opened once opens again offline and a page never opened fails to load offline
//   (the app then shows its offline fallback page);
// - never touches /api: the page's offline API layer (src/lib/offline-cache.ts) caches business answers itself;
// - waits when it is a new version, until the page's update prompt sends SKIP_WAITING.
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';

/**
 * The parts of ServiceWorkerGlobalScope used here. (TypeScript's WebWorker library cannot join this program's DOM
 * one: a `/// <reference lib="webworker" />` would change DOM types for every other file.)
 */
declare const self: {
  /** Replaced at build time by the precache manifest. */
  __WB_MANIFEST: Array<PrecacheEntry | string>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

/** Runtime cache of hashed assets; bounded so that the chunks of old versions do not pile up forever. */
const ASSET_CACHE = 'clipstash-assets';
const ASSET_CACHE_MAX_ENTRIES = 300;
/** A navigation that hangs longer than this (a captive portal, lie-fi) gets the precached shell. */
const NAVIGATION_TIMEOUT_SECONDS = 5;
const API_PATH = /^\/api(\/|$)/;

// Only exact URLs: '/' must not be answered with the precached index.html (navigations go to the network first).
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(
    new NetworkOnly({
      networkTimeoutSeconds: NAVIGATION_TIMEOUT_SECONDS,
      plugins: [{ handlerDidError: async () => (await matchPrecache('index.html')) ?? Response.error() }],
    }),
    { denylist: [API_PATH] },
  ),
);

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/') && !url.pathname.endsWith('.map'),
  new CacheFirst({
    cacheName: ASSET_CACHE,
    plugins: [
      { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
      new ExpirationPlugin({ maxEntries: ASSET_CACHE_MAX_ENTRIES, purgeOnQuotaError: true }),
    ],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// A first install takes control of the open page at once, so that its later lazy loads are cached too.
clientsClaim();
