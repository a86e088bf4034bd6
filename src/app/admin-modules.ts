import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Permission } from '../../contract/auth';

export const ADMIN_MODULES = [
  'dashboard',
  'text-management',
  'file-management',
  'file-requests',
  'tasks',
  'storage-config',
  'mount-management',
  'key-management',
  'webhooks',
  'settings',
] as const;
export type AdminModule = (typeof ADMIN_MODULES)[number];

export const isAdminModule = (value: unknown): value is AdminModule =>
  typeof value === 'string' && (ADMIN_MODULES as readonly string[]).includes(value);

export const ADMIN_MODULE_TITLES: Record<AdminModule, MessageDescriptor> = {
  dashboard: msg`Dashboard`,
  'text-management': msg`Text management`,
  'file-management': msg`File management`,
  'file-requests': msg`File requests`,
  tasks: msg`Tasks`,
  'storage-config': msg`Storage config`,
  'mount-management': msg`Mount management`,
  'key-management': msg`Key management`,
  webhooks: msg`Webhooks`,
  settings: msg`System settings`,
};

/** The permission an API key needs to open a module in the user panel; absent = admins only. */
export const KEY_MODULE_PERMISSION: Partial<Record<AdminModule, Permission>> = {
  'text-management': 'text',
  'file-management': 'file',
  'file-requests': 'file',
};
