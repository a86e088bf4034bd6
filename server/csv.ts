import type { Context } from 'hono';
import { contentDisposition } from './storage/http-headers';

/**
 * One RFC 4180 field: quoted when it holds a comma, quote, CR or LF, quotes doubled. Text a spreadsheet would run as
 * a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`: what the exports hold was typed by others (API-key
 * holders, visitors' user agents) and is opened by the admin.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV record with its CRLF. */
export const csvLine = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

/**
 * What a CSV download starts with: the UTF-8 byte order mark. Without it Excel reads the file in the system's code
 * page and shows Chinese titles and names garbled; other readers skip it.
 */
export const CSV_BOM = '\uFEFF';

/** The headers of a CSV download named `filename`. */
export const csvHeaders = (filename: string) => ({
  'Content-Type': 'text/csv; charset=utf-8; header=present',
  'Content-Disposition': contentDisposition('attachment', filename),
  'Cache-Control': 'no-store',
});

/** A CSV download built whole. */
export function csvResponse(c: Context, csv: string, filename: string): Response {
  return c.body(`${CSV_BOM}${csv}`, 200, csvHeaders(filename));
}
