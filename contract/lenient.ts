import * as v from 'valibot';
import { customSlugSchema } from './slugs';

/**
 * What CloudPaste's frontend sends besides plain JSON types, taken once here rather than route by
 * route: a number written as a string (`size: "36"`), a yes/no as `"true"`/`"false"`, `slug: ""` for "no custom
 * link" and `contentType: null` for "work it out from the name". Anything else fails exactly as the strict schema
 * would: a non-numeric string still meets `v.number()` and its "Invalid type" issue.
 */

/**
 * The parts the API document describes (server/openapi/json-schema.ts holds their descriptions, which a browser
 * has no use for).
 */
export const numberAsText = v.string();
export const booleanAsText = v.string();

/** Digits with an optional sign and fraction, as a form or a query writes a number; no `1e3`, no `0x50`. */
const NUMERIC_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

const numberFromText = (value: number | string) => (typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : value);
const booleanFromText = (value: boolean | string) => (value === 'true' ? true : value === 'false' ? false : value);

/**
 * `schema` (a number with its checks), also given as a numeric string. The document shows both forms, with the
 * number's limits; the checks run on the number either way.
 */
export function numberish<S extends v.GenericSchema<number, number>>(schema: S) {
  return v.pipe(
    v.union([schema, numberAsText]),
    v.transform(numberFromText),
    schema,
  );
}

/** A boolean, also given as `"true"` or `"false"`. */
export const booleanish = v.pipe(
  v.union([v.boolean(), booleanAsText]),
  v.transform(booleanFromText),
  v.boolean(),
);

/** A custom slug; absent, empty or blank: none asked for (a random one, or unchanged on an update). */
export const optionalSlug = v.optional(
  v.pipe(
    v.string(),
    v.transform((slug) => (slug.trim() === '' ? undefined : slug)),
    v.optional(customSlugSchema),
  ),
);

/** A MIME type the client chose; absent, empty or null: the server takes it from the file's name. */
export const nullableContentType = v.optional(
  v.pipe(
    v.nullable(v.pipe(v.string(), v.maxLength(255, 'too_long'))),
    v.transform((type) => type ?? ''),
  ),
  '',
);

/** A share's password; absent or empty: none (CloudPaste sends `password: ""` when no password was set). */
export function optionalPassword<S extends v.GenericSchema<string, string>>(schema: S) {
  return v.optional(
    v.pipe(
      v.string(),
      v.transform((password) => (password === '' ? undefined : password)),
      v.optional(schema),
    ),
  );
}

/** An expiry where null means none; CloudPaste's key form writes that none as `"never"`. */
export function nullableOrNever<S extends v.GenericSchema<string, string>>(schema: S) {
  // Checked after the transform, so that a bad date keeps its own reason (`invalid_date`), not a union's.
  return v.pipe(
    v.nullable(v.string()),
    v.transform((value) => (value === 'never' ? null : value)),
    v.nullable(schema),
  );
}
