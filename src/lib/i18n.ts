import { i18n } from '@lingui/core';
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

export async function activateLocale(locale: Locale) {
  const { messages } = (await import(`../locales/${locale}/messages.po`)) as { messages: Record<string, string> };
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

export async function switchLocale(locale: Locale) {
  localStore.set(STORAGE_KEYS.language, locale);
  await activateLocale(locale);
}

export const initialLocale = () => detectLocale(localStore.get(STORAGE_KEYS.language), navigator.languages ?? []);
