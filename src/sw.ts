// The service worker (built by vite-plugin-pwa, strategy injectManifest). What it does, and what it leaves alone:
// - precaches the app shell: index.html, the files it loads, the language catalogs, the icons and the manifest;
// - answers navigations from the network, and with the precached index.html when the network fails (offline);
// - caches every other hashed build asset the first time it is loaded (cache first: the names change with the
//   content), so that a page opened once opens again offline and a page never opened fails to load offline
//   (the app then shows its offline fallback page); a copy courier's script too, which the engine's worker loads
//   (the courier's own requests then skip this worker: public/courier-sw.js);
// - never touches /api: the page's offline API layer (src/lib/offline-cache.ts) caches business answers itself;
//   /api and every upload (PUT, POST, DELETE, to any origin) are routed past this worker at install (static
//   routing), so that pages' requests do not wait on it (Chromium still hands it the transfer engine's: below);
// - takes what the system's share sheet sends to the installed app (the manifest's share_target: a multipart POST),
//   keeps it in the share inbox (IndexedDB) and sends the page on: text and links to the editor, files to the
//   upload page;
// - waits when it is a new version, until the page's update prompt sends SKIP_WAITING;
// - answers a streamed download (a zip of the mount explorer where the browser cannot write files) with the
//   stream the page handed it, so that the browser saves the bytes as they come.
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';
import { MIN_PART_BYTES } from '../contract/parts';
import { SHARE_TARGET_FIELDS, SHARE_TARGET_PATH, SHARE_TARGET_UNAVAILABLE_PAGE, SHARED_PARAM } from '../contract/share-target';
import { shareInbox } from './lib/share-inbox';
import { STREAMED_DOWNLOAD_PATH, type StreamedDownloadMessage } from './lib/streamed-download';

/**
 * The parts of ServiceWorkerGlobalScope used here. (TypeScript's WebWorker library cannot join this program's DOM
 * one: a `/// <reference lib="webworker" />` would change DOM types for every other file.)
 */
declare const self: {
  /** Replaced at build time by the precache manifest. */
  __WB_MANIFEST: Array<PrecacheEntry | string>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'install', listener: (event: InstallEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: { request: Request }) => void): void;
};

/** The install event with the Service Worker Static Routing API (Chromium 123+; elsewhere absent). */
interface InstallEvent {
  waitUntil(promise: Promise<unknown>): void;
  addRoutes?(rules: RouterRule[]): Promise<void>;
}
type RouterCondition = { urlPattern?: string; requestMethod?: string } | { or: RouterCondition[] };
interface RouterRule {
  condition: RouterCondition;
  source: 'network' | 'fetch-event';
}

/** Runtime cache of hashed assets; bounded so that the chunks of old versions do not pile up forever. */
const ASSET_CACHE = 'clipstash-assets';
const ASSET_CACHE_MAX_ENTRIES = 300;
/** A navigation that hangs longer than this (a captive portal, lie-fi) gets the precached shell. */
const NAVIGATION_TIMEOUT_SECONDS = 5;
const API_PATH = /^\/api(\/|$)/;
/** A streamed download's request comes at once; one never asked for is dropped after this long. */
const STREAMED_DOWNLOAD_WAIT_MS = 60_000;

/** Streams handed over by pages, by id, until their download's request takes them. */
const streamedDownloads = new Map<string, { filename: string; stream: ReadableStream<Uint8Array> }>();

/** `attachment` with the name for every browser: an ASCII fallback and the UTF-8 name (RFC 6266). */
const attachment = (filename: string) =>
  `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`;

// Requests this worker never answers skip it: no fetch event, no round trip through this thread per request. A
// browser without static routing still lets them through the fetch handler untouched, and so does Chromium for
// the requests of a Web Worker (the transfer engine's): it applies the routes to the requests of pages only. A
// copy's couriers, which move most bytes, have a service worker of their own without a fetch handler
// (public/courier-sw.js), so their requests skip this one altogether.
self.addEventListener('install', (event) => {
  const uploads = ['PUT', 'POST', 'DELETE'].map((requestMethod) => ({ requestMethod }));
  const rules: RouterRule[] = [
    // The one POST this worker answers; the first rule that matches wins.
    { condition: { urlPattern: SHARE_TARGET_PATH, requestMethod: 'POST' }, source: 'fetch-event' },
    { condition: { or: [{ urlPattern: '/api/*' }, ...uploads] }, source: 'network' },
  ];
  if (event.addRoutes) event.waitUntil(event.addRoutes(rules).catch(() => undefined));
});

/** What an upload's body is counted as below: a part of the engine's multipart uploads. */
const UPLOAD_BODY_BYTES = MIN_PART_BYTES;
/** The last ArrayBuffer made to count an upload: kept, so that the bundler does not drop making it as unused. */
const countedForGc: ArrayBuffer[] = [];

// Each fetch event's Request holds its body (an upload's part, a blob in the browser's memory) until this worker's
// heap is collected; V8 is told nothing of that memory, and this worker makes almost no garbage of its own, so it
// was never collected while the engine uploaded: a copy of 2 GiB between storages filled Chromium's blob storage
// (before the couriers went past this worker; the engine's own uploads still come through).
// Each upload is counted as an ArrayBuffer of a part's size, never written to (so never resident), which V8 counts
// as external memory: after a dozen or so V8 collects, and the bodies go with their events.
self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET' && event.request.method !== 'HEAD') countedForGc.splice(0, 1, new ArrayBuffer(UPLOAD_BODY_BYTES));
});

// Only exact URLs: '/' must not be answered with the precached index.html (navigations go to the network first).
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

// Before the navigation route: a download's request may be a navigation.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith(STREAMED_DOWNLOAD_PATH),
  async ({ url }) => {
    const id = url.pathname.slice(STREAMED_DOWNLOAD_PATH.length).split('/')[0] ?? '';
    const download = streamedDownloads.get(id);
    streamedDownloads.delete(id);
    if (!download) return new Response(null, { status: 404 });
    return new Response(download.stream, {
      headers: { 'Content-Type': 'application/zip', 'Content-Disposition': attachment(download.filename), 'Cache-Control': 'no-store' },
    });
  },
);

/** What the share sheet sent is kept for the page to take; the redirect (303: a GET) opens that page. */
async function receiveShare({ request }: { request: Request }): Promise<Response> {
  try {
    const form = await request.formData();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    // A form's empty file field still sends a nameless, empty file.
    const files = form.getAll(SHARE_TARGET_FIELDS.files).filter((value): value is File => typeof value !== 'string' && value.name !== '');
    const id = crypto.randomUUID();
    const entry = { id, files, receivedAt: Date.now(), title: field(SHARE_TARGET_FIELDS.title), text: field(SHARE_TARGET_FIELDS.text), url: field(SHARE_TARGET_FIELDS.url) };
    await shareInbox.put(entry);
    return Response.redirect(`${files.length > 0 ? '/upload' : '/'}?${SHARED_PARAM}=${id}`, 303);
  } catch {
    return Response.redirect(SHARE_TARGET_UNAVAILABLE_PAGE, 303);
  }
}
registerRoute(({ url, sameOrigin }) => sameOrigin && url.pathname === SHARE_TARGET_PATH, receiveShare, 'POST');

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
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === 'STREAMED_DOWNLOAD') {
    const { id, filename, stream } = event.data as StreamedDownloadMessage;
    streamedDownloads.set(id, { filename, stream });
    setTimeout(() => {
      if (streamedDownloads.delete(id)) void stream.cancel();
    }, STREAMED_DOWNLOAD_WAIT_MS);
    event.ports[0]?.postMessage('ready');
  }
});

// A first install takes control of the open page at once, so that its later lazy loads are cached too.
clientsClaim();
