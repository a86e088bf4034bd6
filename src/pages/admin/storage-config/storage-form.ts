import {
  DEFAULT_PORTS,
  HOST_KEY_SHA256,
  type S3_PROVIDERS,
  type CreateStorageConfigRequest,
  type FtpTlsMode,
  type StorageConfig,
  type StorageType,
  type UpdateStorageConfigRequest,
} from '../../../../contract/storage';

const GIB = 1024 ** 3;

/** What the storage form holds, for every kind at once (the kind chosen shows its own fields). */
export interface StorageFormValues {
  name: string;
  provider_type: string;
  endpoint_url: string;
  region: string;
  bucket_name: string;
  access_key_id: string;
  secret_access_key: string;
  path_style: boolean;
  host: string;
  port: string;
  username: string;
  password: string;
  private_key: string;
  passphrase: string;
  host_key_sha256: string;
  tls: FtpTlsMode;
  allow_private_host: boolean;
  default_folder: string;
  quotaGb: string;
  is_public: boolean;
  is_default: boolean;
}

/** A field the admin must fix before the form is sent; the form says each in words. */
export type StorageFormProblem =
  | 'name'
  | 'quota'
  | 's3_fields'
  | 's3_secret'
  | 'endpoint'
  | 'host'
  | 'port'
  | 'username'
  | 'password'
  | 'password_or_key'
  | 'host_key';

/** The values of a new form, or of a config being edited; secrets are never filled in (they are never sent back). */
export function initialValues(editing?: StorageConfig): StorageFormValues {
  return {
    name: editing?.name ?? '',
    provider_type: editing?.provider_type ?? 'Other',
    endpoint_url: editing?.endpoint_url ?? '',
    region: editing?.region ?? 'us-east-1',
    bucket_name: editing?.bucket_name ?? '',
    access_key_id: editing?.access_key_id ?? '',
    secret_access_key: '',
    path_style: editing?.path_style ?? true,
    host: editing?.host ?? '',
    port: editing?.port ? String(editing.port) : '',
    username: editing?.username ?? '',
    password: '',
    private_key: '',
    passphrase: '',
    host_key_sha256: editing?.host_key_sha256 ?? '',
    tls: editing?.tls ?? 'explicit',
    allow_private_host: editing?.allow_private_host ?? false,
    default_folder: editing?.default_folder ?? '',
    quotaGb: editing?.total_storage_bytes ? String(editing.total_storage_bytes / GIB) : '',
    is_public: editing?.is_public ?? false,
    is_default: editing?.is_default ?? false,
  };
}

const isPort = (text: string) => text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 65535);
const isHttpUrl = (text: string) => {
  try {
    return /^https?:$/.test(new URL(text.trim()).protocol);
  } catch {
    return false;
  }
};

/** The first thing to fix, or undefined when the form may be sent. An edit may leave every secret blank (kept). */
export function problemOf(type: StorageType, values: StorageFormValues, editing: boolean): StorageFormProblem | undefined {
  if (!values.name.trim()) return 'name';
  const quota = values.quotaGb.trim() ? Number(values.quotaGb) : null;
  if (quota !== null && !(quota > 0)) return 'quota';
  if (type === 'S3') {
    if (!values.endpoint_url.trim() || !values.bucket_name.trim() || !values.access_key_id.trim()) return 's3_fields';
    if (!editing && !values.secret_access_key) return 's3_secret';
  }
  if (type === 'WEBDAV' && !isHttpUrl(values.endpoint_url)) return 'endpoint';
  if (type === 'SFTP' || type === 'FTP') {
    if (!values.host.trim()) return 'host';
    if (!isPort(values.port)) return 'port';
  }
  if (type === 'WEBDAV' || type === 'SFTP' || type === 'FTP') {
    if (!values.username.trim()) return 'username';
    if (type === 'SFTP') {
      if (!editing && !values.password && !values.private_key.trim()) return 'password_or_key';
      if (values.host_key_sha256.trim() && !HOST_KEY_SHA256.test(values.host_key_sha256.trim())) return 'host_key';
    } else if (!editing && !values.password) return 'password';
  }
  return undefined;
}

const commonOf = (values: StorageFormValues) => {
  const quota = values.quotaGb.trim() ? Number(values.quotaGb) : null;
  return {
    name: values.name.trim(),
    default_folder: values.default_folder.trim(),
    total_storage_bytes: quota === null ? null : Math.round(quota * GIB),
    is_public: values.is_public,
    is_default: values.is_default,
  };
};

/** The fields of the kind, without secrets; the port falls back to the kind's default. */
function kindFieldsOf(type: StorageType, values: StorageFormValues) {
  if (type === 'S3') {
    return {
      provider_type: values.provider_type as (typeof S3_PROVIDERS)[number],
      endpoint_url: values.endpoint_url.trim(),
      region: values.region.trim(),
      bucket_name: values.bucket_name.trim(),
      access_key_id: values.access_key_id.trim(),
      path_style: values.path_style,
    };
  }
  if (type === 'LOCAL') return {};
  const remote = { username: values.username.trim(), allow_private_host: values.allow_private_host };
  if (type === 'WEBDAV') return { ...remote, endpoint_url: values.endpoint_url.trim() };
  const where = { ...remote, host: values.host.trim(), port: values.port.trim() ? Number(values.port) : DEFAULT_PORTS[type] };
  if (type === 'SFTP') return { ...where, host_key_sha256: values.host_key_sha256.trim() };
  return { ...where, tls: values.tls };
}

/** The secrets typed in, by their API names; a blank one is left out (on an edit: keep the stored one). */
function secretsOf(type: StorageType, values: StorageFormValues): Record<string, string> {
  const typed: Record<string, string> =
    type === 'S3'
      ? { secret_access_key: values.secret_access_key }
      : type === 'SFTP'
        ? { password: values.password, private_key: values.private_key.trim(), passphrase: values.passphrase }
        : type === 'LOCAL'
          ? {}
          : { password: values.password };
  return Object.fromEntries(Object.entries(typed).filter(([, secret]) => secret !== ''));
}

export function createBodyOf(type: StorageType, values: StorageFormValues): CreateStorageConfigRequest {
  return { storage_type: type, ...commonOf(values), ...kindFieldsOf(type, values), ...secretsOf(type, values) } as CreateStorageConfigRequest;
}

export function changesOf(type: StorageType, values: StorageFormValues): UpdateStorageConfigRequest {
  return { ...commonOf(values), ...kindFieldsOf(type, values), ...secretsOf(type, values) };
}
