import { cancelled } from './failure';

/** How often a task waiting for the network looks at the online flag, besides listening for the `online` event. */
export const ONLINE_CHECK_MS = 1000;

/** Where a wait for the network looks: the browser's online flag, and the target its `online` events arrive at. */
export interface OnlineSource {
  isOnline(): boolean;
  events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

export const browserOnline: OnlineSource = { isOnline: () => navigator.onLine, events: globalThis };

/**
 * Resolves when the browser is online again; rejects as cancelled when the task is. A dedicated worker is not always
 * sent `online` (Chromium's network emulation changes navigator.onLine without it), so the flag is also checked every
 * second.
 */
export function untilOnline(signal: AbortSignal, source: OnlineSource = browserOnline): Promise<void> {
  return new Promise((resolve, reject) => {
    if (source.isOnline()) return resolve();
    const stop = () => {
      source.events.removeEventListener('online', online);
      clearInterval(check);
    };
    const online = () => {
      stop();
      resolve();
    };
    source.events.addEventListener('online', online);
    const check = setInterval(() => source.isOnline() && online(), ONLINE_CHECK_MS);
    signal.addEventListener(
      'abort',
      () => {
        stop();
        reject(cancelled());
      },
      { once: true },
    );
  });
}

/** Resolves after `ms`; rejects as cancelled at once when the task is. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(cancelled());
      },
      { once: true },
    );
  });
}
