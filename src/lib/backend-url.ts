import { localStore, STORAGE_KEYS } from './storage';

declare global {
  interface Window {
    /** Optional runtime configuration injected by a deployment before the app loads. */
    __CLIPSTASH_CONFIG__?: { apiBaseUrl?: string };
  }
}

/** Where the API lives: a runtime config, else a saved local value (dev switcher), else this origin. */
export function backendBaseUrl(): string {
  const configured = window.__CLIPSTASH_CONFIG__?.apiBaseUrl ?? localStore.get(STORAGE_KEYS.backendUrl);
  return (configured ?? window.location.origin).replace(/\/+$/, '');
}

export function saveBackendUrl(url: string | undefined) {
  localStore.set(STORAGE_KEYS.backendUrl, url?.trim() || undefined);
}
