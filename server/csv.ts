import type { Context } from 'hono';
import { contentDisposition } from './storage/http-headers';

/**
 * One RFC 4180 field: quoted when it holds a comma, quote, CR or LF, quotes doubled. Text a spreadsheet would run as
 * a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`: what visitors and API-key holders typed is opened
 * by the admin.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

/**
 * A CSV download. The UTF-8 byte order mark goes first: without it Excel reads the file in the system's code page and
 * shows Chinese titles and names garbled; other readers skip it.
 */
export function csvResponse(c: Context, csv: string, filename: string): Response {
  return c.body(`\uFEFF${csv}`, 200, {
    'Content-Type': 'text/csv; charset=utf-8; header=present',
    'Content-Disposition': contentDisposition('attachment', filename),
    'Cache-Control': 'no-store',
  });
}
