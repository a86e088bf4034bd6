import { Workbox } from 'workbox-window';

/** A page left open asks for a new version this often; every navigation asks too. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export interface ServiceWorkerHandlers {
  /** A new version is installed and waits for this page's go-ahead. */
  onUpdateReady: () => void;
  /** Another service worker took control of this page. */
  onControllerChange: () => void;
}

let workbox: Workbox | undefined;

/**
 * The copy couriers' scripts (workers/courier.worker.ts, built as assets/courier.worker-<hash>.js): the scope of
 * their own service worker (public/courier-sw.js), so that their requests skip the app's.
 */
const COURIER_SCOPE = '/assets/courier.worker-';

/**
 * Registers /sw.js and the couriers' /courier-sw.js (production builds only; the dev server has none) and reports
 * what the update-prompt machine needs. Returns the clean-up. The worker itself is src/sw.ts.
 */
export function registerServiceWorker(handlers: ServiceWorkerHandlers): () => void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return () => {};
  const wb = new Workbox('/sw.js', { scope: '/' });
  workbox = wb;
  const onWaiting = () => handlers.onUpdateReady();
  const onControllerChange = () => handlers.onControllerChange();
  const onActivated = (event: { isUpdate?: boolean }) => {
    if (!event.isUpdate) cacheAssetsLoadedBeforeControl(wb);
  };
  wb.addEventListener('waiting', onWaiting);
  wb.addEventListener('activated', onActivated);
  navigator.serviceWorker.addEventListener('controllerchange', onControllerChange);
  wb.register().catch((error: unknown) => console.warn('Service worker registration failed', error));
  // Couriers started before it is active go through the app's worker, as they did before it existed.
  const couriers = navigator.serviceWorker.register('/courier-sw.js', { scope: COURIER_SCOPE }).catch(() => undefined);
  const timer = setInterval(() => {
    void wb.update().catch(() => undefined);
    void couriers.then((registration) => registration?.update()).catch(() => undefined);
  }, UPDATE_CHECK_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    wb.removeEventListener('waiting', onWaiting);
    wb.removeEventListener('activated', onActivated);
    navigator.serviceWorker.removeEventListener('controllerchange', onControllerChange);
    if (workbox === wb) workbox = undefined;
  };
}

/** "Update now": the waiting worker activates; `controllerchange` follows. */
export function skipWaiting() {
  workbox?.messageSkipWaiting();
}

/**
 * The very first visit loads its code before the worker exists: hand those URLs to the worker (workbox-routing's
 * CACHE_URLS message runs them through its routes), so that this page also opens offline next time.
 */
function cacheAssetsLoadedBeforeControl(wb: Workbox) {
  const assets = `${window.location.origin}/assets/`;
  const urlsToCache = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(assets));
  if (urlsToCache.length > 0) void wb.messageSW({ type: 'CACHE_URLS', payload: { urlsToCache } }).catch(() => undefined);
}
