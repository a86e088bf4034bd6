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
