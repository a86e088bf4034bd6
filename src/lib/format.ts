const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The date formatters for locales other than the app's own, made once per locale and options. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): Intl.DateTimeFormat {
  const cacheKey = `${locale} ${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(cacheKey);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(cacheKey, format);
  }
  return format;
}

export const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * The app's two locales' medium date and short time, as `Intl.DateTimeFormat` writes them, without `Intl`: a page's
 * first `Intl` formatter loads ICU's data, measured in Chromium at 25-60 ms in one task, and a share's page shows
 * dates in its first render. (format.test.ts holds this to Intl's own output.)
 */
function appLocaleDateTime(date: Date, locale: string): string | undefined {
  const [year, month, day, hours, minutes] = [date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes()];
  if (locale === 'en-US') return `${EN_MONTHS[month]} ${day}, ${year}, ${hours % 12 || 12}:${twoDigits(minutes)} ${hours < 12 ? 'AM' : 'PM'}`;
  if (locale === 'zh-CN') return `${year}年${month + 1}月${day}日 ${twoDigits(hours)}:${twoDigits(minutes)}`;
  return undefined;
}

/** The date an ISO string stands for; undefined for none or an invalid one. */
export function parseDate(iso: string | null | undefined): Date | undefined {
  const date = iso ? new Date(iso) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** Date and time in the reader's locale and time zone, or a dash. */
export function formatDateTime(iso: string | null | undefined, locale: string): string {
  const date = parseDate(iso);
  if (!date) return '—';
  return appLocaleDateTime(date, locale) ?? dateTimeFormat(locale).format(date);
}

/**
 * A calendar day (`2026-11-28`, no time of day, no time zone) in the reader's locale, as formatDateTime writes its
 * date part ("Nov 28, 2026", "2026年11月28日"): one date style per language across a page.
 */
export function formatCalendarDate(day: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (locale === 'en-US') return `${EN_MONTHS[month - 1]} ${date}, ${year}`;
  if (locale === 'zh-CN') return `${year}年${month}月${date}日`;
  return dateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, date));
}

/**
 * A whole number as the app's two locales write it (1,234,567), without `Intl`, for the same reason as dates:
 * Lingui writes a plural's `#` with `Intl.NumberFormat`, the first of which loads ICU's data in a share page's render.
 */
export function formatCount(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.50 KB"; binary units as file managers show them, joined by a no-break space so that no line splits them. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)}\u00a0${UNITS[unit]}`;
}
