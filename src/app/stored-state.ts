import type { Permissions } from '../../contract/auth';
import type { StoredCredentials } from '../../machines/auth.machine';
import { isThemeMode, type ThemeMode } from '../../machines/theme-modes';
import { localStore, STORAGE_KEYS } from '../lib/storage';

// What this browser kept: the machines' input, and what the page uses before XState has loaded (see actors.tsx).

export function readStoredCredentials(): StoredCredentials {
  return {
    adminToken: localStore.get(STORAGE_KEYS.adminToken),
    apiKey: localStore.get(STORAGE_KEYS.apiKey),
    permissions: localStore.getJson<Permissions>(STORAGE_KEYS.apiKeyPermissions),
    basicPath: localStore.get(STORAGE_KEYS.apiKeyBasicPath),
  };
}

export function storedThemeMode(): ThemeMode {
  const stored = localStore.get(STORAGE_KEYS.themeMode);
  return isThemeMode(stored) ? stored : 'auto';
}
