/** The app's localStorage keys; the only place that names them. */
export const STORAGE_KEYS = {
  adminToken: 'admin_token',
  apiKey: 'api_key',
  apiKeyPermissions: 'api_key_permissions',
  apiKeyBasicPath: 'api_key_basic_path',
  language: 'language',
  themeMode: 'themeMode',
  backendUrl: 'backend_url',
  installPromptDismissedAt: 'install_prompt_dismissed_at',
  recentUploads: 'recent_uploads',
  /** This browser's choice of parts in flight per upload. */
  partsPerUpload: 'parts_per_upload',
  /** The mount explorer's list or grid view. */
  explorerView: 'mount_explorer_view',
  /** Whether the editor encrypts new pastes in this browser. */
  encryptPastes: 'encrypt_pastes',
  /** The grants this browser holds to send files through file requests, by request slug. */
  fileRequestGrants: 'file_request_grants',
} as const;

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** localStorage that never throws (private mode, disabled storage, quota). */
export const localStore = {
  get(key: StorageKey): string | undefined {
    try {
      return localStorage.getItem(key) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(key: StorageKey, value: string | undefined) {
    try {
      if (value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      // Nothing to do: the value lives for this page only.
    }
  },
  getJson<T>(key: StorageKey): T | undefined {
    const raw = this.get(key);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  },
};
