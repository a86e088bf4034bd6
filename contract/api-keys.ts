import * as v from 'valibot';
import { booleanish, nullableOrNever } from './lenient';
import { isoTimestampSchema } from './time';

export const API_KEY_NAME_MAX = 50;
export const CUSTOM_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
export const CUSTOM_KEY_MIN = 8;
export const CUSTOM_KEY_MAX = 64;
export const GENERATED_KEY_LENGTH = 24;

/**
 * A base path: absolute, no empty, `.` or `..` segments. A trailing slash (`/local/dir/`, as CloudPaste's clients
 * write it) is dropped, so that one folder is stored one way: `/local/dir`; `/` stays `/`.
 */
export const basicPathSchema = v.pipe(
  v.string(),
  v.trim(),
  v.transform(normalizeBasicPath),
  v.check((p) => isCleanAbsolutePath(p), 'invalid_path'),
);

/** A base path as stored: one trailing slash dropped (`/local/dir/` → `/local/dir`), `/` kept. Checked afterwards. */
export function normalizeBasicPath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export function isCleanAbsolutePath(path: string): boolean {
  if (path === '/') return true;
  if (!path.startsWith('/') || path.endsWith('/')) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export const customKeySchema = v.pipe(
  v.string(),
  v.minLength(CUSTOM_KEY_MIN, 'too_short'),
  v.maxLength(CUSTOM_KEY_MAX, 'too_long'),
  v.regex(CUSTOM_KEY_PATTERN, 'invalid_characters'),
);

export const createApiKeyRequestSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(API_KEY_NAME_MAX)),
  expires_at: v.optional(nullableOrNever(isoTimestampSchema), null),
  text_permission: v.optional(booleanish, false),
  file_permission: v.optional(booleanish, false),
  mount_permission: v.optional(booleanish, false),
  expense_permission: v.optional(booleanish, false),
  custom_key: v.optional(customKeySchema),
  basic_path: v.optional(basicPathSchema, '/'),
});
export type CreateApiKeyRequest = v.InferInput<typeof createApiKeyRequestSchema>;

export const updateApiKeyRequestSchema = v.partial(
  v.object({
    name: createApiKeyRequestSchema.entries.name,
    expires_at: nullableOrNever(isoTimestampSchema),
    text_permission: booleanish,
    file_permission: booleanish,
    mount_permission: booleanish,
    expense_permission: booleanish,
    basic_path: basicPathSchema,
  }),
);
export type UpdateApiKeyRequest = v.InferInput<typeof updateApiKeyRequestSchema>;

/**
 * A key as the API shows it after its creation: the server keeps only the key's hash and its first characters
 * (`key_masked`: the prefix and `…`), so no answer but the creation's can carry the key itself.
 */
export const apiKeySchema = v.object({
  id: v.string(),
  name: v.string(),
  key_masked: v.string(),
  text_permission: v.boolean(),
  file_permission: v.boolean(),
  mount_permission: v.boolean(),
  expense_permission: v.boolean(),
  basic_path: v.string(),
  expires_at: v.nullable(v.string()),
  last_used: v.nullable(v.string()),
  created_at: v.string(),
});
export type ApiKey = v.InferOutput<typeof apiKeySchema>;

export const apiKeyListSchema = v.array(apiKeySchema);

/** The answer to a creation: the only one that holds the whole key, shown once. */
export const createdApiKeySchema = v.object({ ...apiKeySchema.entries, key: v.string() });
export type CreatedApiKey = v.InferOutput<typeof createdApiKeySchema>;
