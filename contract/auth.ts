import * as v from 'valibot';

export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const loginRequestSchema = v.object({
  username: v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(USERNAME_MAX)),
  password: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(PASSWORD_MAX)),
});
export type LoginRequest = v.InferOutput<typeof loginRequestSchema>;

export const loginResponseSchema = v.object({
  username: v.string(),
  token: v.string(),
  expiresAt: v.string(),
});
export type LoginResponse = v.InferOutput<typeof loginResponseSchema>;

export const adminCheckResponseSchema = v.object({ username: v.string() });

export const changePasswordRequestSchema = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string(), v.minLength(1, 'required')),
    newPassword: v.optional(
      v.pipe(v.string(), v.minLength(PASSWORD_MIN, 'too_short'), v.maxLength(PASSWORD_MAX)),
    ),
    newUsername: v.optional(
      v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(USERNAME_MAX)),
    ),
  }),
  v.check(
    (input) => input.newPassword !== undefined || input.newUsername !== undefined,
    'new_username_or_password_required',
  ),
);
export type ChangePasswordRequest = v.InferOutput<typeof changePasswordRequestSchema>;

export const PERMISSIONS = ['text', 'file', 'mount', 'expense'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const permissionsSchema = v.object({
  text: v.boolean(),
  file: v.boolean(),
  mount: v.boolean(),
  expense: v.boolean(),
});
export type Permissions = v.InferOutput<typeof permissionsSchema>;

export const apiKeyTestResponseSchema = v.object({
  name: v.string(),
  basic_path: v.string(),
  permissions: permissionsSchema,
  key_info: v.object({
    id: v.string(),
    name: v.string(),
    basic_path: v.string(),
    expires_at: v.nullable(v.string()),
  }),
});
export type ApiKeyTestResponse = v.InferOutput<typeof apiKeyTestResponseSchema>;
