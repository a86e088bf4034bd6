// Short forms for table cells and task rows, apart from ./format.ts, which a share's page loads.
import { dateTimeFormat, EN_MONTHS, parseDate, twoDigits } from './format';

/**
 * A date short enough for one table cell, as mail clients write it: the time for `now`'s day ("2:05 PM", "14:05"),
 * the day within its year ("Nov 27", "11月27日"), the day and year otherwise ("Nov 27, 2025", "2025年11月27日").
 * Tables give formatDateTime's full text on hover.
 */
export function formatShortDateTime(iso: string | null | undefined, locale: string, now = new Date()): string {
  const date = parseDate(iso);
  if (!date) return '—';
  const [year, month, day, hours, minutes] = [date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes()];
  const span = year !== now.getFullYear() ? 'year' : month !== now.getMonth() || day !== now.getDate() ? 'day' : 'time';
  if (locale === 'en-US') {
    if (span === 'time') return `${hours % 12 || 12}:${twoDigits(minutes)} ${hours < 12 ? 'AM' : 'PM'}`;
    return span === 'day' ? `${EN_MONTHS[month]} ${day}` : `${EN_MONTHS[month]} ${day}, ${year}`;
  }
  if (locale === 'zh-CN') {
    if (span === 'time') return `${twoDigits(hours)}:${twoDigits(minutes)}`;
    return span === 'day' ? `${month + 1}月${day}日` : `${year}年${month + 1}月${day}日`;
  }
  const options: Record<typeof span, Intl.DateTimeFormatOptions> = {
    time: { timeStyle: 'short' },
    day: { month: 'short', day: 'numeric' },
    year: { dateStyle: 'medium' },
  };
  return dateTimeFormat(locale, options[span]).format(date);
}

/** Seconds as "1:05" or "1:02:03". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
