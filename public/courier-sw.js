// The service worker of the copy couriers (workers/courier.worker.ts), registered over their script's URL: it has no
// fetch handler, so Chromium sends their requests straight to the network. Under the app's worker (src/sw.ts) each
// courier request was a fetch event, a trip through that worker's thread, whose Request held the upload's body.
self.addEventListener('install', () => self.skipWaiting());
