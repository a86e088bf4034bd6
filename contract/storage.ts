import * as v from 'valibot';
import { booleanish, numberish } from './lenient';

export const STORAGE_TYPES = ['LOCAL', 'S3', 'WEBDAV', 'SFTP', 'FTP'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/** S3-compatible providers the app knows by name (their quirks: R2 wants equal part sizes, B2 its own endpoint). */
export const S3_PROVIDERS = ['AWS S3', 'Cloudflare R2', 'Backblaze B2', 'Aliyun OSS', 'MinIO', 'Other'] as const;
export const LOCAL_PROVIDER = 'Local';
/** The name the built-in local storage is created with; shown in the reader's language while it is unchanged. */
export const BUILTIN_LOCAL_NAME = 'Local storage';

/** What answers show instead of a stored secret. */
export const SECRET_MASK = '********';

const nameSchema = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(100, 'too_long'));
/**
 * A folder inside the bucket (or local root) that every object goes under; no leading or trailing slash. For
 * WebDAV, SFTP and FTP it is also the base folder on the server (below the WebDAV address), which must exist.
 */
const folderSchema = v.pipe(
  v.string(),
  v.trim(),
  v.transform((folder) => folder.replace(/^\/+|\/+$/g, '')),
  v.check((folder) => folder.split('/').every((part) => part !== '..' && part !== '.'), 'invalid_path'),
  v.maxLength(500, 'too_long'),
);
const quotaSchema = v.nullable(numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(1, 'must_be_positive'))));
const urlSchema = v.pipe(v.string(), v.trim(), v.url('invalid_url'), v.regex(/^https?:\/\//, 'invalid_url'));

/** A host name or an IP address (IPv6 without brackets). */
const hostSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(253, 'too_long'),
  v.regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/, 'invalid_host'),
);
const portSchema = numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(1, 'invalid_port'), v.maxValue(65535, 'invalid_port')));
const usernameSchema = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(255, 'too_long'));
const secretSchema = v.pipe(v.string(), v.maxLength(16_384, 'too_long'));
/** As `ssh-keygen -l` prints it: `SHA256:` and the base64 of 32 bytes without padding. */
export const HOST_KEY_SHA256 = /^SHA256:[A-Za-z0-9+/]{43}$/;
const hostKeySchema = v.pipe(v.string(), v.trim(), v.check((value) => value === '' || HOST_KEY_SHA256.test(value), 'invalid_host_key'));
export const FTP_TLS_MODES = ['none', 'explicit', 'implicit'] as const;
export type FtpTlsMode = (typeof FTP_TLS_MODES)[number];
/** Storages on a WebDAV, SFTP or FTP server: their bytes pass through this server. */
export const REMOTE_STORAGE_TYPES = ['WEBDAV', 'SFTP', 'FTP'] as const;
export const DEFAULT_PORTS = { SFTP: 22, FTP: 21 } as const;
/** FTP in passive mode only: the client library has no active mode, so `false` is refused rather than ignored. */
const passiveOnly = v.pipe(booleanish, v.check((passive) => passive, 'invalid_choice'));

/**
 * A config whose host resolves to a loopback or private address is refused unless the server allows private URLs
 * or the admin ticks this for the config (a NAS on the LAN).
 */
const allowPrivateHost = { allow_private_host: v.optional(booleanish, false) };

const common = {
  name: nameSchema,
  default_folder: v.optional(folderSchema, ''),
  /** Bytes; null = no quota. */
  total_storage_bytes: v.optional(quotaSchema, null),
  /** API keys may use only public configs. */
  is_public: v.optional(booleanish, false),
  is_default: v.optional(booleanish, false),
};

/** Without `storage_type` a config is S3, as in CloudPaste, whose configs were all S3 and whose form never sends it. */
export const createStorageConfigRequestSchema = v.variant('storage_type', [
  v.object({ storage_type: v.literal('LOCAL'), ...common }),
  v.object({
    storage_type: v.optional(v.literal('S3'), 'S3'),
    ...common,
    provider_type: v.optional(v.picklist(S3_PROVIDERS, 'invalid_choice'), 'Other'),
    endpoint_url: urlSchema,
    region: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64)), 'us-east-1'),
    bucket_name: v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'invalid_bucket')),
    access_key_id: v.pipe(v.string(), v.trim(), v.minLength(1, 'required')),
    secret_access_key: v.pipe(v.string(), v.minLength(1, 'required')),
    path_style: v.optional(booleanish, true),
  }),
  v.object({
    storage_type: v.literal('WEBDAV'),
    ...common,
    ...allowPrivateHost,
    endpoint_url: urlSchema,
    username: usernameSchema,
    password: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(16_384, 'too_long')),
  }),
  v.object({
    storage_type: v.literal('SFTP'),
    ...common,
    ...allowPrivateHost,
    host: hostSchema,
    port: v.optional(portSchema, DEFAULT_PORTS.SFTP),
    username: usernameSchema,
    /** A password, a private key (PEM or OpenSSH), or both; the server refuses a config with neither. */
    password: v.optional(secretSchema, ''),
    private_key: v.optional(secretSchema, ''),
    passphrase: v.optional(secretSchema, ''),
    /** Empty: any host key is taken (the form says so). */
    host_key_sha256: v.optional(hostKeySchema, ''),
  }),
  v.object({
    storage_type: v.literal('FTP'),
    ...common,
    ...allowPrivateHost,
    host: hostSchema,
    port: v.optional(portSchema, DEFAULT_PORTS.FTP),
    username: usernameSchema,
    password: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(16_384, 'too_long')),
    tls: v.optional(v.picklist(FTP_TLS_MODES, 'invalid_choice'), 'explicit'),
    passive: v.optional(passiveOnly, true),
  }),
]);
export type CreateStorageConfigRequest = v.InferInput<typeof createStorageConfigRequestSchema>;

/** Every field optional; an absent or empty secret keeps the stored one. The type cannot change. */
export const updateStorageConfigRequestSchema = v.partial(
  v.object({
    name: nameSchema,
    default_folder: folderSchema,
    total_storage_bytes: quotaSchema,
    is_public: booleanish,
    is_default: booleanish,
    provider_type: v.picklist(S3_PROVIDERS, 'invalid_choice'),
    endpoint_url: urlSchema,
    region: v.pipe(v.string(), v.trim(), v.maxLength(64)),
    bucket_name: v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'invalid_bucket')),
    access_key_id: v.pipe(v.string(), v.trim(), v.minLength(1, 'required')),
    secret_access_key: v.string(),
    path_style: booleanish,
    host: hostSchema,
    port: portSchema,
    username: usernameSchema,
    password: secretSchema,
    private_key: secretSchema,
    passphrase: secretSchema,
    host_key_sha256: hostKeySchema,
    tls: v.picklist(FTP_TLS_MODES, 'invalid_choice'),
    passive: passiveOnly,
    allow_private_host: booleanish,
  }),
);
export type UpdateStorageConfigRequest = v.InferInput<typeof updateStorageConfigRequestSchema>;

export const storageConfigSchema = v.object({
  id: v.string(),
  name: v.string(),
  storage_type: v.picklist(STORAGE_TYPES),
  provider_type: v.string(),
  endpoint_url: v.nullable(v.string()),
  region: v.nullable(v.string()),
  bucket_name: v.nullable(v.string()),
  access_key_id: v.nullable(v.string()),
  /** Always the mask (or null for LOCAL): secrets never leave the server. */
  secret_access_key: v.nullable(v.literal(SECRET_MASK)),
  path_style: v.boolean(),
  /** SFTP and FTP; null for the others. */
  host: v.nullable(v.string()),
  port: v.nullable(v.number()),
  /** WebDAV, SFTP, FTP (admins only). */
  username: v.nullable(v.string()),
  /** The mask when one is stored, else null, as for the S3 secret. */
  password: v.nullable(v.literal(SECRET_MASK)),
  private_key: v.nullable(v.literal(SECRET_MASK)),
  passphrase: v.nullable(v.literal(SECRET_MASK)),
  host_key_sha256: v.nullable(v.string()),
  tls: v.nullable(v.picklist(FTP_TLS_MODES)),
  passive: v.nullable(v.boolean()),
  allow_private_host: v.boolean(),
  default_folder: v.string(),
  total_storage_bytes: v.nullable(v.number()),
  is_public: v.boolean(),
  is_default: v.boolean(),
  /** Bytes of committed files stored through this config. */
  used_storage_bytes: v.number(),
  file_count: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  last_used: v.nullable(v.string()),
});
export type StorageConfig = v.InferOutput<typeof storageConfigSchema>;
export const storageConfigListSchema = v.array(storageConfigSchema);

const checkSchema = v.object({ ok: v.boolean(), message: v.string() });
/** The steps of a connection test, in order; a step after a failed one is not tried. */
export const STORAGE_TEST_STEPS = ['connect', 'list', 'write', 'read', 'delete'] as const;
export type StorageTestStep = (typeof STORAGE_TEST_STEPS)[number];
const stepSchema = v.object({ step: v.picklist(STORAGE_TEST_STEPS), ok: v.boolean(), message: v.string() });
/** `POST /api/s3-configs/{id}/test`: each check on its own, and each step in plain words. */
export const storageTestResultSchema = v.object({
  ok: v.boolean(),
  checks: v.object({ read: checkSchema, write: checkSchema, cors: checkSchema, presignedPut: checkSchema }),
  steps: v.array(stepSchema),
});
export type StorageTestResult = v.InferOutput<typeof storageTestResultSchema>;
