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

/** The messages a visitor can meet on a share's page (lingui.config.ts): a share's first load waits for these only. */
const visitorCatalog = (locale: Locale) => import(`../locales/${locale}/visitor.po`) as Promise<Catalog>;
/** Every other message. */
const restOfCatalog = (locale: Locale) => import(`../locales/${locale}/messages.po`) as Promise<Catalog>;

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
    loading = Promise.all([visitorCatalog(locale), restOfCatalog(locale)]).then(([visitor, rest]) =>
      i18n.load(locale, { ...visitor.messages, ...rest.messages }),
    );
    loading.catch(() => wholeCatalogs.delete(locale));
    wholeCatalogs.set(locale, loading);
  }
  return loading;
}

/** Activates `locale`: with its whole catalog, or with the visitor's part only (a share's first load). */
export async function activateLocale(locale: Locale, { visitorOnly = false } = {}) {
  if (visitorOnly) i18n.load(locale, { ...(await visitorCatalog(locale)).messages });
  else await loadWholeCatalog(locale);
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

// A message the visitor's part lacks (an owner's dialog opened early on a share's page): its id shows until the
// whole catalog has loaded, and the text once it has.
i18n.on('missing', () => void loadWholeCatalog().catch(() => undefined));

export async function switchLocale(locale: Locale) {
  localStore.set(STORAGE_KEYS.language, locale);
  await activateLocale(locale);
}

export const initialLocale = () => detectLocale(localStore.get(STORAGE_KEYS.language), navigator.languages ?? []);
