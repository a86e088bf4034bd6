import {
  CUSTOM_KEY_MAX,
  CUSTOM_KEY_MIN,
  CUSTOM_KEY_PATTERN,
  isCleanAbsolutePath,
  normalizeBasicPath,
  type ApiKey,
} from '../../../../contract/api-keys';
import type { Permission, Permissions } from '../../../../contract/auth';

export const EXPIRY_CHOICES = ['1d', '7d', '30d', 'never', 'custom'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];
/** Edit only: leave the expiry as it is. */
export type EditExpiryChoice = ExpiryChoice | 'keep';

const DAY_MS = 86_400_000;
const FIXED_DAYS: Partial<Record<ExpiryChoice, number>> = { '1d': 1, '7d': 7, '30d': 30 };
export const MAX_CUSTOM_DAYS = 36_500;

export interface KeyFormValues {
  name: string;
  expiry: EditExpiryChoice;
  customDays: string;
  useCustomKey: boolean;
  customKey: string;
  permissions: Permissions;
  basicPath: string;
}

/** A new key's form: the text permission only; any other, expense claims included, is the admin's choice. */
export const NEW_KEY_FORM: KeyFormValues = {
  name: '',
  expiry: '30d',
  customDays: '',
  useCustomKey: false,
  customKey: '',
  permissions: { text: true, file: false, mount: false, expense: false },
  basicPath: '/',
};

/** A permission's field in the API's key requests and answers. */
type PermissionFields = Pick<ApiKey, `${Permission}_permission`>;

/** The form of an existing key: its expiry is kept unless changed. */
export function keyFormValuesOf(key: ApiKey): KeyFormValues {
  const permissions: Permissions = {
    text: key.text_permission,
    file: key.file_permission,
    mount: key.mount_permission,
    expense: key.expense_permission,
  };
  return { ...NEW_KEY_FORM, name: key.name, expiry: 'keep', permissions, basicPath: key.basic_path };
}

/** The permissions as the create and update requests take them. */
export function permissionFields(permissions: Permissions): PermissionFields {
  return {
    text_permission: permissions.text,
    file_permission: permissions.file,
    mount_permission: permissions.mount,
    expense_permission: permissions.expense,
  };
}

export type KeyFormErrors = Partial<
  Record<'name' | 'customDays' | 'customKey' | 'basicPath', 'required' | 'invalid' | 'length' | 'characters'>
>;

export function validateKeyForm(values: KeyFormValues): KeyFormErrors {
  const errors: KeyFormErrors = {};
  if (!values.name.trim()) errors.name = 'required';
  if (values.expiry === 'custom') {
    const days = Number(values.customDays);
    if (!values.customDays.trim()) errors.customDays = 'required';
    else if (!Number.isInteger(days) || days < 1 || days > MAX_CUSTOM_DAYS) errors.customDays = 'invalid';
  }
  if (values.useCustomKey) {
    const key = values.customKey.trim();
    if (!key) errors.customKey = 'required';
    else if (!CUSTOM_KEY_PATTERN.test(key)) errors.customKey = 'characters';
    else if (key.length < CUSTOM_KEY_MIN || key.length > CUSTOM_KEY_MAX) errors.customKey = 'length';
  }
  // As the server takes it: a trailing slash is dropped (`/team/docs/` is stored as `/team/docs`).
  if (!isCleanAbsolutePath(normalizeBasicPath(values.basicPath.trim() || '/'))) errors.basicPath = 'invalid';
  return errors;
}

/** The `expires_at` to send: an ISO time, null for never, undefined to leave it unchanged. */
export function expiresAtFor(values: Pick<KeyFormValues, 'expiry' | 'customDays'>, now: Date): string | null | undefined {
  if (values.expiry === 'keep') return undefined;
  if (values.expiry === 'never') return null;
  const days = values.expiry === 'custom' ? Number(values.customDays) : (FIXED_DAYS[values.expiry] ?? 0);
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}
