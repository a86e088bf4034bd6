import * as v from 'valibot';

/**
 * The instant an ISO timestamp names, as its UTC `toISOString()` form; undefined when it names none.
 * `v.isoTimestamp` admits forms `Date` cannot read (`+01` offsets: NaN, so an expiry would never be enforced)
 * or reads wrongly (`02-31` rolls over to March): the first are completed, the second refused.
 */
export function normalizeIsoTimestamp(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  const time = Date.parse(text.replace(/([+-]\d{2})$/, '$1:00'));
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** An ISO timestamp, validated and turned into one canonical UTC form. */
export const isoTimestampSchema = v.pipe(
  v.string(),
  v.isoTimestamp('invalid_date'),
  v.check((text) => normalizeIsoTimestamp(text) !== undefined, 'invalid_date'),
  v.transform((text) => normalizeIsoTimestamp(text) ?? text),
);
