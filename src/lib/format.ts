import { nextTask } from './idle';

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** formatDateTime's formatter, made once per locale: making one takes milliseconds. */
function dateTimeFormat(locale: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  return format;
}

/** Date and time in the reader's locale, or a dash. */
export function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return dateTimeFormat(locale).format(date);
}

/**
 * Makes the date formatter ahead of a first render that shows dates, in tasks of their own: a page's first `Intl`
 * formatter loads ICU's locale data (measured in Chromium: 20–70 ms, a long task on a busy machine), which would
 * otherwise land in the render's task. A collator made first takes about half of that load in a task of its own.
 */
export async function prepareDateTimeFormat(locale: string): Promise<void> {
  await nextTask();
  new Intl.Collator(locale);
  await nextTask();
  dateTimeFormat(locale);
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
