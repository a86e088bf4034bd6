import * as v from 'valibot';

export const API_KEY_NAME_MAX = 50;
export const CUSTOM_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
export const CUSTOM_KEY_MIN = 8;
export const CUSTOM_KEY_MAX = 64;
export const GENERATED_KEY_LENGTH = 24;

/** A base path: absolute, no empty, `.` or `..` segments, no trailing slash except the root. */
export const basicPathSchema = v.pipe(
  v.string(),
  v.trim(),
  v.check((p) => isCleanAbsolutePath(p), 'invalid_path'),
);

export function isCleanAbsolutePath(path: string): boolean {
  if (path === '/') return true;
  if (!path.startsWith('/') || path.endsWith('/')) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

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

/** An ISO timestamp, stored and answered in one canonical UTC form; `null` is never. */
const expiresAtSchema = v.nullable(
  v.pipe(
    v.string(),
    v.isoTimestamp('invalid_date'),
    v.check((text) => normalizeIsoTimestamp(text) !== undefined, 'invalid_date'),
    v.transform((text) => normalizeIsoTimestamp(text) ?? text),
  ),
);

export const customKeySchema = v.pipe(
  v.string(),
  v.minLength(CUSTOM_KEY_MIN, 'too_short'),
  v.maxLength(CUSTOM_KEY_MAX, 'too_long'),
  v.regex(CUSTOM_KEY_PATTERN, 'invalid_characters'),
);

export const createApiKeyRequestSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(API_KEY_NAME_MAX)),
  expires_at: v.optional(expiresAtSchema, null),
  text_permission: v.optional(v.boolean(), false),
  file_permission: v.optional(v.boolean(), false),
  mount_permission: v.optional(v.boolean(), false),
  custom_key: v.optional(customKeySchema),
  basic_path: v.optional(basicPathSchema, '/'),
});
export type CreateApiKeyRequest = v.InferInput<typeof createApiKeyRequestSchema>;

export const updateApiKeyRequestSchema = v.partial(
  v.object({
    name: createApiKeyRequestSchema.entries.name,
    expires_at: expiresAtSchema,
    text_permission: v.boolean(),
    file_permission: v.boolean(),
    mount_permission: v.boolean(),
    basic_path: basicPathSchema,
  }),
);
export type UpdateApiKeyRequest = v.InferInput<typeof updateApiKeyRequestSchema>;

export const apiKeySchema = v.object({
  id: v.string(),
  name: v.string(),
  key: v.string(),
  key_masked: v.string(),
  text_permission: v.boolean(),
  file_permission: v.boolean(),
  mount_permission: v.boolean(),
  basic_path: v.string(),
  expires_at: v.nullable(v.string()),
  last_used: v.nullable(v.string()),
  created_at: v.string(),
});
export type ApiKey = v.InferOutput<typeof apiKeySchema>;

export const apiKeyListSchema = v.array(apiKeySchema);
