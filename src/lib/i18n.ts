import { i18n, type Messages } from '@lingui/core';
import { localStore, STORAGE_KEYS } from './storage';

export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const FALLBACK_LOCALE: Locale = 'zh-CN';

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The stored preference, else the browser's (zh* → zh-CN, anything else → en-US), else zh-CN. */
export function detectLocale(stored: string | undefined, browserLanguages: readonly string[]): Locale {
  if (isLocale(stored)) return stored;
  const first = browserLanguages[0];
  if (!first) return FALLBACK_LOCALE;
  return first.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

type Catalog = { messages: Messages };

/** The share pages, each with its visitor's catalog (lingui.config.ts): the shell's messages and the page's. */
export type SharePage = 'paste' | 'file';

/** The messages a share's visitor can meet before the page has settled: its first load waits for these only. */
const visitorCatalog = (locale: Locale, page: SharePage) => import(`../locales/${locale}/visitor-${page}.po`) as Promise<Catalog>;
/** Every message. */
const wholeCatalog = (locale: Locale) => import(`../locales/${locale}/messages.po`) as Promise<Catalog>;

/** Locales whose whole catalog has been loaded, or is loading. */
const wholeCatalogs = new Map<Locale, Promise<void>>();

/**
 * Loads a locale's whole catalog (the active one's by default): before any page but a share's renders, and once a
 * share's page has settled.
 */
export function loadWholeCatalog(locale = i18n.locale): Promise<void> {
  if (!isLocale(locale)) return Promise.resolve();
  let loading = wholeCatalogs.get(locale);
  if (!loading) {
    loading = wholeCatalog(locale).then(({ messages }) => i18n.load(locale, { ...messages }));
    loading.catch(() => wholeCatalogs.delete(locale));
    wholeCatalogs.set(locale, loading);
  }
  return loading;
}

/** Activates `locale`: with its whole catalog, or with a share page's visitor catalog only (a share's first load). */
export async function activateLocale(locale: Locale, { visitorOf }: { visitorOf?: SharePage } = {}) {
  if (visitorOf) i18n.load(locale, { ...(await visitorCatalog(locale, visitorOf)).messages });
  else await loadWholeCatalog(locale);
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

// A message the visitor's catalog lacks (an owner's dialog opened early on a share's page): its id shows until the
// whole catalog has loaded, and the text once it has.
i18n.on('missing', () => void loadWholeCatalog().catch(() => undefined));

export async function switchLocale(locale: Locale) {
  localStore.set(STORAGE_KEYS.language, locale);
  await activateLocale(locale);
}

export const initialLocale = () => detectLocale(localStore.get(STORAGE_KEYS.language), navigator.languages ?? []);
