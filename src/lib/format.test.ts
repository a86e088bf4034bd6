import { describe, expect, it } from 'vitest';
import { formatBytes, formatCalendarDate, formatCount, formatDateTime } from './format';
import { formatDuration, formatShortDateTime } from './format-short';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.50 KB'],
    [10 * 1024 * 1024, '10.0 MB'],
    [150 * 1024 ** 3, '150 GB'],
    [-1, '—'],
  ])('%d → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text.replace(' ', '\u00a0')));
});

describe('formatDuration', () => {
  it('reads as m:ss or h:mm:ss', () => {
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(-5)).toBe('0:00');
  });
});

describe('formatDateTime', () => {
  // Intl writes a narrow no-break space before AM/PM in some ICU versions, a space in others.
  const intl = (date: Date, locale: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date).replace(/\u202f/g, ' ');

  it.each(['en-US', 'zh-CN'])('writes %s dates as Intl does, in the local time zone', (locale) => {
    // Every month, hours around midnight and noon, one- and two-digit days and minutes.
    for (let month = 0; month < 12; month++) {
      for (const [day, hours, minutes] of [[1, 0, 0], [9, 0, 5], [15, 11, 59], [28, 12, 0], [28, 12, 30], [3, 13, 7], [31, 23, 59]] as const) {
        const date = new Date(2026, month, day, hours, minutes);
        expect(formatDateTime(date.toISOString(), locale)).toBe(intl(date, locale));
      }
    }
  });

  it('uses Intl for other locales, and a dash for no date or a bad one', () => {
    const date = new Date(2026, 4, 17, 9, 41);
    expect(formatDateTime(date.toISOString(), 'de-DE')).toBe(intl(date, 'de-DE'));
    expect(formatDateTime(null, 'en-US')).toBe('—');
    expect(formatDateTime('not a date', 'zh-CN')).toBe('—');
  });
});

describe('formatCalendarDate', () => {
  it.each(['en-US', 'zh-CN', 'de-DE'])('writes a calendar day in %s as Intl writes that date, whatever the time zone', (locale) => {
    for (const day of ['2026-11-28', '2024-02-29', '2031-01-01']) {
      const intl = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
      expect(formatCalendarDate(day, locale)).toBe(intl);
    }
  });

  it('leaves what is no calendar day as it is', () => {
    expect(formatCalendarDate('soon', 'en-US')).toBe('soon');
  });
});

describe('formatShortDateTime', () => {
  const now = new Date(2026, 10, 27, 12, 0);

  it("writes the time for today, the day within the year, the day and year outside it", () => {
    expect(formatShortDateTime(new Date(2026, 10, 27, 14, 5).toISOString(), 'en-US', now)).toBe('2:05 PM');
    expect(formatShortDateTime(new Date(2026, 10, 27, 0, 7).toISOString(), 'en-US', now)).toBe('12:07 AM');
    expect(formatShortDateTime(new Date(2026, 10, 3, 14, 5).toISOString(), 'en-US', now)).toBe('Nov 3');
    expect(formatShortDateTime(new Date(2025, 10, 27, 12, 0).toISOString(), 'en-US', now)).toBe('Nov 27, 2025');
    expect(formatShortDateTime(new Date(2026, 10, 27, 9, 5).toISOString(), 'zh-CN', now)).toBe('09:05');
    expect(formatShortDateTime(new Date(2026, 0, 1, 8, 0).toISOString(), 'zh-CN', now)).toBe('1月1日');
    expect(formatShortDateTime(new Date(2027, 1, 9, 8, 0).toISOString(), 'zh-CN', now)).toBe('2027年2月9日');
  });

  it('uses Intl for other locales, and a dash for no date', () => {
    const date = new Date(2026, 4, 17, 9, 41);
    expect(formatShortDateTime(date.toISOString(), 'de-DE', now)).toBe(new Intl.DateTimeFormat('de-DE', { month: 'short', day: 'numeric' }).format(date));
    expect(formatShortDateTime(undefined, 'en-US', now)).toBe('—');
  });
});

describe('formatCount', () => {
  it.each(['en-US', 'zh-CN'])('writes whole numbers as Intl does in %s', (locale) => {
    for (const value of [0, 1, 12, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890]) {
      expect(formatCount(value)).toBe(new Intl.NumberFormat(locale).format(value));
    }
  });
});
