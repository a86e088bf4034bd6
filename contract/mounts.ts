import * as v from 'valibot';
import { booleanish, numberish } from './lenient';
import { STORAGE_TYPES } from './storage';

export const MOUNT_NAME_MIN = 2;
export const MOUNT_NAME_MAX = 50;
export const DEFAULT_CACHE_TTL = 300;
/** First segments a mount may not take: the server's own routes live there. */
export const RESERVED_MOUNT_ROOTS = ['api', 'dav', 'admin'] as const;
const MAX_MOUNT_PATH = 255;

/**
 * Why a mount path is refused, or undefined when it is fine: starts with `/`, no trailing `/`, no empty, `.` or
 * `..` segments, no backslash or control character, not under a reserved root. Shared by the form and the server.
 */
export function mountPathProblem(path: string): 'invalid_path' | 'reserved_path' | 'too_long' | undefined {
  if (path.length > MAX_MOUNT_PATH) return 'too_long';
  if (!path.startsWith('/') || path === '/' || path.endsWith('/') || path.includes('\\') || /\p{Cc}/u.test(path)) return 'invalid_path';
  const segments = path.slice(1).split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.trim() !== segment)) return 'invalid_path';
  if ((RESERVED_MOUNT_ROOTS as readonly string[]).includes(segments[0]?.toLowerCase() ?? '')) return 'reserved_path';
  return undefined;
}

const nameSchema = v.pipe(v.string(), v.trim(), v.minLength(MOUNT_NAME_MIN, 'too_short'), v.maxLength(MOUNT_NAME_MAX, 'too_long'));
const mountPathSchema = v.pipe(
  v.string(),
  v.trim(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = mountPathProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);
const integerUpTo = (max: number) =>
  numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative'), v.maxValue(max, 'too_large')));
const remarkSchema = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(500, 'too_long')));

export const createMountRequestSchema = v.object({
  name: nameSchema,
  storage_type: v.picklist(STORAGE_TYPES, 'invalid_choice'),
  storage_config_id: v.pipe(v.string(), v.minLength(1, 'required')),
  mount_path: mountPathSchema,
  remark: v.optional(remarkSchema, null),
  is_active: v.optional(booleanish, true),
  sort_order: v.optional(integerUpTo(1_000_000), 0),
  cache_ttl: v.optional(integerUpTo(86_400 * 30), DEFAULT_CACHE_TTL),
});
export type CreateMountRequest = v.InferInput<typeof createMountRequestSchema>;

/** Every field optional: activate or deactivate with `{ is_active }` alone. */
export const updateMountRequestSchema = v.partial(createMountRequestSchema);
export type UpdateMountRequest = v.InferInput<typeof updateMountRequestSchema>;

export const mountSchema = v.object({
  id: v.string(),
  name: v.string(),
  storage_type: v.picklist(STORAGE_TYPES),
  storage_config_id: v.string(),
  /** The config's name, for tables; null if the admin cannot see it. */
  storage_config_name: v.nullable(v.string()),
  mount_path: v.string(),
  remark: v.nullable(v.string()),
  is_active: v.boolean(),
  sort_order: v.number(),
  cache_ttl: v.number(),
  /** `system`, `admin` or `apikey:<id>`. */
  created_by: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
});
export type Mount = v.InferOutput<typeof mountSchema>;
export const mountListSchema = v.array(mountSchema);
