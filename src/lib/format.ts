const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** formatDateTime's formatter for locales other than the app's own, made once per locale. */
function dateTimeFormat(locale: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  return format;
}

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

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

/** Date and time in the reader's locale and time zone, or a dash. */
export function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return appLocaleDateTime(date, locale) ?? dateTimeFormat(locale).format(date);
}

/**
 * A whole number as the app's two locales write it (1,234,567), without `Intl`, for the same reason as dates:
 * Lingui writes a plural's `#` with `Intl.NumberFormat`, the first of which loads ICU's data in a share page's render.
 */
export function formatCount(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB"; binary units as file managers show them. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** Seconds as "1:05" or "1:02:03". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
