import type { Generated } from 'kysely';
import type { AccessKind } from '../../contract/access-log';
import type { ExpenseEvent, ExpenseStatus } from '../../contract/expenses';
import type { PasteEncryption } from '../../contract/paste-encryption';
import type { StorageType } from '../../contract/storage';
import type { FsConflictPolicy } from '../../contract/fs';
import type { IndexState } from '../../contract/search';
import type { WEBHOOK_TEST_EVENT, WebhookEvent, WebhookFormat } from '../../contract/webhooks';
import type { Actor, JobStatus, JobType, SyncMode, TransferKind, TransferOutcome } from '../../contract/jobs';

/** Flags are 0/1 integers (SQLite has no booleans; PostgreSQL stores the same). Times are ISO-8601 strings in UTC. */
type Flag = number;

export interface AdminsTable {
  id: string;
  username: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface AdminTokensTable {
  token_hash: string;
  admin_id: string;
  expires_at: string;
  created_at: string;
}

/** The admin's second factor (021-two-factor); TOTP secrets sealed with the SecretBox. */
export interface AdminSecondFactorsTable {
  admin_id: string;
  totp_secret: string | null;
  /** A secret shown for enrolment, not yet confirmed with a first code. */
  totp_pending_secret: string | null;
  /** The TOTP time step of the last code accepted: that code and older ones are refused. */
  totp_last_step: number | null;
  totp_enabled_at: string | null;
  /** The challenge of a passkey registration in progress. */
  passkey_challenge: string | null;
  passkey_challenge_expires_at: string | null;
  updated_at: string;
}

export interface AdminRecoveryCodesTable {
  admin_id: string;
  /** HMAC-SHA256 (base64url) of the normalised code under the SecretBox's `recovery-code` key. */
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

export interface AdminPasskeysTable {
  /** The WebAuthn credential id, base64url. */
  id: string;
  admin_id: string;
  name: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports. */
  transports: string;
  created_at: string;
  last_used_at: string | null;
}

/** A login whose password was right, waiting for its second step; known by the SHA-256 of its token. */
export interface AdminPendingLoginsTable {
  token_hash: string;
  admin_id: string;
  /** The login rate limit's key of the password step, which the second step counts against too. */
  limit_key: string;
  /** The challenge of a passkey assertion asked for. */
  challenge: string | null;
  expires_at: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  /** SHA-256 (hex) of the key: how a presented key is found. The key itself is kept nowhere (007-api-key-hashes). */
  key_hash: string;
  /** The key's first characters, shown in lists as `key_masked`. */
  key_prefix: string;
  text_permission: Flag;
  file_permission: Flag;
  mount_permission: Flag;
  /** Files and sees its own expense claims (009-expenses). */
  expense_permission: Flag;
  basic_path: string;
  expires_at: string | null;
  last_used: string | null;
  created_at: string;
  updated_at: string;
}

export interface PastesTable {
  id: string;
  slug: string;
  content: string;
  /** The content's encryption (010-paste-encryption); null: plain text. */
  encryption: PasteEncryption | null;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: Generated<number>;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface StorageConfigsTable {
  id: string;
  name: string;
  storage_type: StorageType;
  provider_type: string;
  endpoint_url: string | null;
  region: string | null;
  bucket_name: string | null;
  access_key_id: string | null;
  secret_access_key_encrypted: string | null;
  path_style: Flag;
  default_folder: string;
  total_storage_bytes: number | null;
  is_public: Flag;
  is_default: Flag;
  /** WebDAV, SFTP, FTP (migration 015); WebDAV's address is `endpoint_url`. Secrets sealed like the S3 secret. */
  host: Generated<string | null>;
  port: Generated<number | null>;
  username: Generated<string | null>;
  password_encrypted: Generated<string | null>;
  private_key_encrypted: Generated<string | null>;
  passphrase_encrypted: Generated<string | null>;
  /** `SHA256:<base64>` as `ssh-keygen -l` prints it; null: any host key (the admin was told). */
  host_key_sha256: Generated<string | null>;
  tls: Generated<'none' | 'explicit' | 'implicit' | null>;
  passive: Generated<Flag | null>;
  /** The admin allowed a host on a loopback or private address for this config. */
  allow_private_host: Generated<Flag>;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_used: string | null;
}

export interface FilesTable {
  id: string;
  slug: string;
  filename: string;
  mimetype: string;
  size: number;
  storage_config_id: string;
  storage_path: string;
  s3_url: string | null;
  etag: string | null;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: Generated<number>;
  /** `pending` until the object is committed to storage; pending rows are cleaned after the presign lifetime. */
  status: 'pending' | 'committed';
  /** The storage's multipart upload while the record is pending (null for single PUTs and form uploads). */
  upload_id: string | null;
  /** Bytes per part of that upload (every part but the last), as the client planned it at init. */
  part_size: number | null;
  /** URL uploads: the address the bytes came from. */
  source_url: string | null;
  /** The key the object was copied from into the share area, until that original is deleted (services/share-area.ts). */
  moved_from: Generated<string | null>;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface MountsTable {
  id: string;
  name: string;
  mount_path: string;
  storage_type: StorageType;
  storage_config_id: string;
  remark: string | null;
  sort_order: number;
  cache_ttl: number;
  is_active: Flag;
  /** Bumped by every write through the app: cached listings of an older version are stale (see services/shared-cache.ts). */
  cache_version: Generated<number>;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface SystemSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** Failed logins per `ip|username`: epoch milliseconds as a JSON array, oldest first (see login-rate-limit.ts). */
export interface LoginFailuresTable {
  key: string;
  failures: string;
  /** The latest failure: a row whose latest failure left the window is of no use any more. */
  updated_at: string;
}

/** A chore that one instance at a time runs: held by `holder` until `expires_at` unless renewed. */
export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** A WebDAV dead property of the resource at `path` (a mount file system path): the property element as XML. */
export interface DavPropertiesTable {
  path: string;
  /** The property's namespace URI; '' for none. */
  namespace: string;
  name: string;
  xml: string;
}

/** A WebDAV write lock on `path` (and below it with depth `infinity`) until `expires_at`. */
export interface DavLocksTable {
  /** `opaquelocktoken:<uuid>`. */
  token: string;
  path: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The `DAV:owner` element the client sent, as XML. */
  owner: string | null;
  timeout_seconds: number;
  expires_at: string;
  created_by: string;
}

/** An expense claim; `status` is the fold of its events, written in the same transaction as each of them. */
export interface ExpenseClaimsTable {
  id: string;
  title: string;
  amount_minor: number;
  /** ISO 4217. */
  currency: string;
  /** `YYYY-MM-DD`. */
  spent_on: string;
  category: string;
  description: string;
  status: ExpenseStatus;
  /** `admin` or `apikey:<id>` (context.ts creatorOf). */
  created_by: string;
  /** The owner's name when the claim was filed: the key may be renamed or deleted since. */
  owner_name: string;
  created_at: string;
  updated_at: string;
}

/** One transition of a claim, in the order it happened (`seq` on PostgreSQL, rowid on SQLite, breaks ties). */
export interface ExpenseEventsTable {
  id: string;
  claim_id: string;
  event: ExpenseEvent;
  from_status: ExpenseStatus;
  to_status: ExpenseStatus;
  actor: string;
  actor_name: string;
  note: string | null;
  created_at: string;
}

/** A receipt's object lives at `storage_path` in the expense area of `storage_config_id` (storage/keys.ts). */
export interface ExpenseReceiptsTable {
  id: string;
  claim_id: string;
  filename: string;
  content_type: string;
  size: number;
  storage_config_id: string;
  storage_path: string;
  etag: string | null;
  created_at: string;
}

/** A file request (011-file-requests): its link's slug, where files land, and its limits (null: none). */
export interface FileRequestsTable {
  id: string;
  slug: string;
  title: string;
  message: string;
  target_kind: 'folder' | 'shares';
  /** A folder request's mount folder, normalised, ending in `/`. */
  target_path: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_files: number | null;
  max_file_size: number | null;
  max_total_size: number | null;
  /** JSON array of contract/file-requests.ts allowed types; empty: any. */
  allowed_types: string;
  show_uploads: Flag;
  closed: Flag;
  /** `admin` or `apikey:<id>`: whose rights the uploads land with. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

/**
 * A file sent through a request. A folder request's file is `storage_key` of `storage_config_id` (at `path`); a
 * shares request's is the file share `file_id`. `upload_id` is the storage's multipart upload while pending.
 */
export interface FileRequestUploadsTable {
  id: string;
  request_id: string;
  /** The grant's sender: who may see and continue this upload. */
  sender_id: string;
  sender_name: string | null;
  /** The name the file is stored under (a free name in a folder). */
  filename: string;
  /** The name its sender gave it; null on rows from before migration 022. */
  sent_name: string | null;
  content_type: string;
  size: number;
  status: 'pending' | 'committed';
  path: string | null;
  storage_config_id: string | null;
  storage_key: string | null;
  upload_id: string | null;
  file_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A name in a storage config held by a write in progress until `expires_at` (server/features/fs/free-names.ts). */
export interface FsNameReservationsTable {
  storage_config_id: string;
  storage_key: string;
  /** What the write that holds it will be when done: `created` or `renamed`. */
  outcome: 'created' | 'renamed';
  expires_at: string;
  created_at: string;
}

/** A transfer one instance carries or carried (server/features/transfers/); see LiveTransfer in contract/jobs.ts. */
export interface LiveTransfersTable {
  id: string;
  kind: TransferKind;
  direction: 'in' | 'out';
  who_kind: Actor['kind'];
  who_name: string;
  who_id: string | null;
  name: string;
  bytes_done: number;
  bytes_total: number | null;
  /** Bytes a second over the last seconds, while running. */
  speed: number | null;
  parts_in_flight: number | null;
  outcome: TransferOutcome;
  instance: string;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A server job (013-jobs, server/features/jobs/): what it does, who asked, its counts and who runs it now. */
export interface JobsTable {
  id: string;
  type: JobType;
  status: JobStatus;
  /** `admin` or `apikey:<id>` (context.ts creatorOf): keys see their own jobs. */
  created_by: string;
  created_by_kind: Actor['kind'];
  created_by_name: string;
  created_by_id: string | null;
  /** Who the job acts as: the admin's id, or the key's id (read again at each start). */
  principal_kind: 'admin' | 'apiKey';
  principal_id: string;
  summary: string;
  target: string;
  on_conflict: FsConflictPolicy;
  sync_mode: SyncMode | null;
  schedule_id: string | null;
  items_total: number;
  items_done: Generated<number>;
  items_skipped: Generated<number>;
  items_failed: Generated<number>;
  bytes_total: number;
  bytes_done: Generated<number>;
  speed: number | null;
  current_item: string | null;
  /** Why the whole job failed or was cancelled by the server (a message key), e.g. `api_key_invalid`. */
  error_reason: string | null;
  owner_instance: string | null;
  lease_expires_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface JobItemsTable {
  job_id: string;
  seq: number;
  /** A file to copy, a folder to make, or (a mirror) a target file to delete. */
  kind: 'file' | 'folder' | 'delete';
  source_path: string | null;
  target_path: string;
  /** 1 once `target_path` is the name its conflict rule chose (so a resumed item writes there again). */
  placed: Flag;
  size: number;
  status: 'pending' | 'running' | 'done' | 'skipped' | 'failed';
  /** A failure's reason code (`fs_exists`, `storage_unavailable`…). */
  reason: string | null;
  /** JSON `{key, params}`: the failure's message, translated when read. */
  reason_message: string | null;
  /** JSON of CopyCheckpoint (server/features/jobs/copy-object.ts), while a multipart copy is under way. */
  checkpoint: string | null;
}

/** A sync schedule (013-jobs): a sync job started by cron, as the admin who made it. */
export interface SyncSchedulesTable {
  id: string;
  source: string;
  target: string;
  cron: string;
  mode: SyncMode;
  enabled: Flag;
  admin_id: string;
  next_run_at: string | null;
  last_run_at: string | null;
  last_job_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A file or folder of a mount, as its search index last saw it (016-fs-index). On PostgreSQL it also has
 * `name_lower`, generated from `name` (018-fs-index-names), which only the search's SQL reads.
 */
export interface FsIndexEntriesTable {
  id: Generated<number>;
  mount_id: string;
  /** Inside the mount, no leading slash; folders without a trailing one. */
  path: string;
  /** The folder holding it, inside the mount ('' for the mount's root). */
  parent: string;
  name: string;
  is_dir: Flag;
  size: number;
  modified: string | null;
}

/** A mount's index: its state and rescan schedule (016-fs-index). */
export interface FsIndexMountsTable {
  mount_id: string;
  state: IndexState;
  built_at: string | null;
  /** The message key of the failure that stopped the last build. */
  error: string | null;
  rescan_minutes: Generated<number>;
  next_rescan_at: string | null;
}

/** A folder of a mount still to be read into its index; `deep`: its known subfolders too (016-fs-index). */
export interface FsIndexPendingTable {
  mount_id: string;
  folder: string;
  deep: Flag;
  /** Bumped by each queueing: a reader deletes the row only if nobody queued it again meanwhile. */
  generation: Generated<number>;
  holder: string | null;
  held_until: string | null;
  queued_at: string;
}

/** An admin's webhook (020-webhooks, server/features/webhooks/). */
export interface WebhooksTable {
  id: string;
  name: string;
  url: string;
  /** JSON array of WebhookEvent names. */
  events: string;
  format: WebhookFormat;
  /** The signing secret, sealed with the secret box: the server must read it back to sign. */
  secret_sealed: string;
  /** Its first and last characters, shown in place of it. */
  secret_hint: string;
  enabled: Flag;
  /** Failed attempts in a row; a success resets it. */
  failure_streak: number;
  failing_since: string | null;
  /** Why the server turned it off (`failures`); null when the admin did or it is on. */
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An event still to deliver to one webhook, oldest id first. */
export interface WebhookOutboxTable {
  id: Generated<number>;
  webhook_id: string;
  event_id: string;
  event: WebhookEvent;
  /** JSON of the WebhookPayload, as signed and sent in the generic format. */
  payload: string;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
}

/** One delivery attempt, kept among the last few of its webhook. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: string;
  event_id: string;
  event: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  attempt: number;
  status_code: number | null;
  /** Why no answer came (`timeout`, `refused`, `network`…). */
  error: string | null;
  duration_ms: number;
  delivered_at: string;
}

/** `<event>:<id>` of announcements made once only (a share's expiry). */
export interface WebhookAnnouncedTable {
  key: string;
  created_at: string;
}

/** One view, download or peek of a paste or a file share (019-access-log); exactly one of the two ids is set. */
export interface ShareAccessLogTable {
  id: Generated<number>;
  paste_id: string | null;
  file_id: string | null;
  at: string;
  /** Truncated to its network unless the admin keeps full addresses (at the time it was written); '' when unknown. */
  ip: string;
  user_agent: string;
  kind: AccessKind;
  /** Bytes of all `count` accesses together. */
  bytes: number;
  completed: Flag;
  /** Identical accesses (share, kind, address, user agent, outcome) within one second, written as one row. */
  count: number;
}

export interface Database {
  admins: AdminsTable;
  admin_tokens: AdminTokensTable;
  admin_second_factors: AdminSecondFactorsTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  admin_passkeys: AdminPasskeysTable;
  admin_pending_logins: AdminPendingLoginsTable;
  api_keys: ApiKeysTable;
  pastes: PastesTable;
  storage_configs: StorageConfigsTable;
  files: FilesTable;
  mounts: MountsTable;
  system_settings: SystemSettingsTable;
  login_failures: LoginFailuresTable;
  leases: LeasesTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  expense_claims: ExpenseClaimsTable;
  expense_events: ExpenseEventsTable;
  expense_receipts: ExpenseReceiptsTable;
  file_requests: FileRequestsTable;
  file_request_uploads: FileRequestUploadsTable;
  fs_name_reservations: FsNameReservationsTable;
  live_transfers: LiveTransfersTable;
  jobs: JobsTable;
  job_items: JobItemsTable;
  sync_schedules: SyncSchedulesTable;
  fs_index_entries: FsIndexEntriesTable;
  fs_index_mounts: FsIndexMountsTable;
  fs_index_pending: FsIndexPendingTable;
  webhooks: WebhooksTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_announced: WebhookAnnouncedTable;
  share_access_log: ShareAccessLogTable;
}
