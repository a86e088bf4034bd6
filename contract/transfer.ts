import type { MetadataStrip } from './image-metadata';
import type { FileShare } from './files';
import type { FsConflictPolicy } from './fs';
import type { Job } from './jobs';

/**
 * The language of the transfer engine: what the UI asks the worker to do, what the worker reports back,
 * and the error codes it fails with. Machines and the worker speak only these; src turns codes into text.
 */

export const TASK_TYPES = ['upload', 'copy', 'move', 'delete', 'download', 'sync'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * Stages of one file upload, and ours: waiting for the browser to be online again, and sending again parts a storage
 * lost (a relay through this server that failed before the upload completed).
 */
export const UPLOAD_STAGES = ['starting', 'initializing', 'uploading', 'processing', 'completing', 'completed', 'waitingForNetwork', 'resendingLost'] as const;
export type UploadStage = (typeof UPLOAD_STAGES)[number];

export const TRANSFER_ERROR_CODES = [
  /** No answer at all: offline, DNS, connection reset. */
  'network',
  /** A request outlived its time-out. */
  'timeout',
  /** The user cancelled. */
  'cancelled',
  /** The storage refused the bytes with an HTTP status. */
  'upload_failed',
  /** Asking the server for an upload URL failed. */
  'presign_failed',
  /** The server could not finish the record after the bytes arrived. */
  'commit_failed',
  /** Starting a multipart upload failed. */
  'init_failed',
  /** One part of a multipart upload failed for good (see `part` and `status`). */
  'part_failed',
  /** The file picked to resume is not the one the upload started with. */
  'file_mismatch',
  /** The file is over the max upload size. */
  'too_large',
  /** The storage configuration has no room left. */
  'quota_exceeded',
  /** The custom link suffix is taken. */
  'slug_taken',
  /** This key may not use that storage configuration. */
  'storage_forbidden',
  /** The session or key stopped working. */
  'unauthorized',
  'unknown',
] as const;
export type TransferErrorCode = (typeof TRANSFER_ERROR_CODES)[number];

export interface TransferError {
  code: TransferErrorCode;
  /** HTTP status when one was received. */
  status?: number;
  /** The multipart part that failed. */
  part?: number;
  /** The server's own message (already in the user's language), when it sent one. */
  serverMessage?: string;
  /** The server's reason for refusing one item of a batch (`fs_exists`, `name_too_long`, …), when it gave one. */
  reason?: string;
  /** Extra figures, e.g. sizes of a 413. */
  data?: Record<string, unknown>;
}

export const isTransferError = (value: unknown): value is TransferError =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string' &&
  (TRANSFER_ERROR_CODES as readonly string[]).includes((value as { code: string }).code);

/** A name taken under `onConflict: fail` (the server's `fs_exists`): the user decides, a plain retry cannot mend it. */
export const isConflictError = (error: TransferError): boolean => error.reason === 'fs_exists';

/** Statuses a later try may not get again: the server is busy, down, or timed out on its side. */
const TRANSIENT_STATUSES = [408, 425, 429, 500, 502, 503, 504];

/**
 * Whether trying an item again can succeed without the user changing anything: a lost connection, a time-out, a
 * busy or failing server, a cancel, a file not picked again. A refusal for what the item is (a conflict, a name or
 * size the storage will not take, a permission) fails again the same way, so "Retry failed" leaves it.
 */
export function isRetryable(error: TransferError): boolean {
  if (isConflictError(error)) return false;
  if (['network', 'timeout', 'cancelled', 'file_mismatch', 'unauthorized'].includes(error.code)) return true;
  if (['too_large', 'quota_exceeded', 'slug_taken', 'storage_forbidden'].includes(error.code)) return false;
  if (error.status !== undefined) return TRANSIENT_STATUSES.includes(error.status);
  // A batch's item refused with a reason and no status: only the server's own failure is worth another try.
  return error.reason === undefined || error.reason === 'internal';
}

/** How the worker reaches the API on the user's behalf. */
export interface ApiAccess {
  baseUrl: string;
  /** The Authorization header value, e.g. `Bearer …` or `ApiKey …`. */
  authorization?: string;
  language: string;
}

/** Share options chosen on the upload page (hours for expires_in; 0 = never / unlimited). */
export interface ShareOptions {
  slug?: string;
  remark?: string;
  password?: string;
  expires_in: number;
  max_views: number;
  /** Metadata removed from shared photos before they leave the browser (contract/image-metadata.ts); absent: kept. */
  strip_metadata?: MetadataStrip;
}

/** Upload one local file as a file share. */
export interface FileShareUpload {
  taskId: string;
  api: ApiAccess;
  file: File;
  mimetype: string;
  storageConfigId?: string;
  options: ShareOptions;
}

/** Upload what a web address serves as a file share (download 0–49 %, upload 50–99 %). */
export interface UrlShareUpload {
  taskId: string;
  api: ApiAccess;
  url: string;
  /** The name to give the file; the source's name when absent. */
  filename?: string;
  storageConfigId?: string;
  options: ShareOptions;
}

/**
 * A local file into a mount folder (mount explorer). `relativePath` keeps a dropped folder's structure
 * (`photos/2024/a.jpg` lands in `{folder}/photos/2024/a.jpg`).
 */
export interface FsFileUpload {
  taskId: string;
  api: ApiAccess;
  file: File;
  /** The mount folder it goes in, ending in `/`. */
  folder: string;
  relativePath?: string;
  /** A large file of a batch upload: the batch's task id. */
  batchOf?: string;
  /** What to do when the name is taken (default `fail`: the explorer asks the user). */
  onConflict?: FsConflictPolicy;
  /** A run after the user decided on the conflicts the first run found; without it, a taken name is asked about. */
  resolution?: ConflictResolution;
}

/** A file of a batch upload and where it goes below the batch's folder (`photos/a.jpg`, or just its name). */
export interface BatchFile {
  file: File;
  relativePath: string;
}

/**
 * Files picked or dropped together into a mount folder, as one task: small files go in groups (one request each),
 * large ones in parts. A file the journal has seen acknowledged is never sent again: not after a pause, a retry
 * of the failed ones, or a reload. The result's paths are the files' relative paths.
 */
export interface FsBatchUpload {
  taskId: string;
  api: ApiAccess;
  /** What the task is called in the list (kept for the list after a reload). */
  label: string;
  /** The mount folder the files go in, ending in `/`. */
  folder: string;
  files: BatchFile[];
  /** A run after the user decided on the conflicts the first run found; without it, taken names are asked about. */
  resolution?: ConflictResolution;
}

/**
 * Files picked or dropped together on the upload page, as one task: each becomes a file share of its own (one
 * presigned PUT, or parts above the multipart threshold), all with the same storage and share options (never a
 * custom slug: that is for one file alone). A file the journal recorded as shared is never sent again: not after a
 * pause, a retry of the failed ones, or a reload. `relativePath` is each file's key in the batch (its name, made
 * unique when two files share one); the result names files by it.
 */
export interface ShareBatchUpload {
  taskId: string;
  api: ApiAccess;
  /** What the task is called in the list (kept for the list after a reload). */
  label: string;
  files: BatchFile[];
  storageConfigId?: string;
  options: ShareOptions;
}

/** A shared file of a batch: its key in the batch, and its share. */
export interface ShareBatchEntry {
  path: string;
  share: FileShare;
}

/** A share batch's result: the per-file counts of any task over many items, and every file's share, in the batch's order. */
export interface ShareBatchResult extends FsItemsResult {
  shares: ShareBatchEntry[];
}

export const isShareBatchResult = (value: unknown): value is ShareBatchResult =>
  typeof value === 'object' && value !== null && Array.isArray((value as { shares?: unknown }).shares) && Array.isArray((value as { failed?: unknown }).failed);

/** A receipt (an image or a PDF) of an expense claim: one form POST to the claim's receipts; answers the stored receipt. */
export interface ReceiptUpload {
  taskId: string;
  api: ApiAccess;
  claimId: string;
  file: File;
}

/**
 * A file sent through a file request (`/request/{slug}`), always in parts (one part for a small file) so that it
 * resumes after a reload like any large upload. `api` carries the sender's grant, not an account's credentials.
 */
export interface RequestFileUpload {
  taskId: string;
  api: ApiAccess;
  slug: string;
  file: File;
}

/** A folder the user picked (File System Access API) into a mount folder: the worker walks it, then uploads it as a batch. */
export interface FsDirectoryUpload {
  taskId: string;
  api: ApiAccess;
  label: string;
  /** The mount folder, ending in `/`. */
  folder: string;
  directory: FileSystemDirectoryHandle;
  resolution?: ConflictResolution;
}

/** One source file or folder and where it goes (a folder ends in `/` on both sides). */
export interface FsCopyItem {
  sourcePath: string;
  targetPath: string;
  /** What to do when the target is taken; the explorer's first run says `fail`, to ask the user. */
  onConflict?: FsConflictPolicy;
}

/**
 * Copy or move files and folders: the server copies (or renames) inside one storage; between storages the worker
 * streams each file from its signed download URL to its signed target, then commits (a move's commit deletes each
 * source once its target is verified). A retry sends only the files that failed.
 */
export interface FsCopy {
  taskId: string;
  api: ApiAccess;
  operation: 'copy' | 'move';
  items: FsCopyItem[];
}

/**
 * A name a write found taken, for the user to decide on: `path` names the item as the task's result does (a
 * relative path for uploads, a source path for copies and moves), `targetPath` is the file in the way. `identical`:
 * same size, and same content where the storage could tell (a SHA-256 of LOCAL files).
 */
export interface FsConflict {
  path: string;
  targetPath: string;
  identical: boolean;
  existingSize?: number;
  newSize?: number;
}

/** The conflicts-resolving choices the user has: skip the file, replace it, or keep both (the new one renamed). */
export type ConflictChoice = Exclude<FsConflictPolicy, 'fail'>;

/**
 * What the user chose for a task's conflicts: one choice for all (`choice`), or one per item (`perPath`, by the
 * conflict's `path`); `skipIdentical` skips identical files whatever the choice.
 */
export interface ConflictDecision {
  choice: ConflictChoice;
  skipIdentical: boolean;
  perPath?: Record<string, ConflictChoice>;
}

/** The conflicts a task met, and what the user chose for them: what the task's next run is given. */
export interface ConflictResolution {
  decision: ConflictDecision;
  conflicts: FsConflict[];
}

/** The policy a decision gives one conflict. */
export const policyFor = (decision: ConflictDecision, conflict: Pick<FsConflict, 'path' | 'identical'>): ConflictChoice =>
  decision.perPath?.[conflict.path] ?? (decision.skipIdentical && conflict.identical ? 'skip' : decision.choice);

// ----------------------------------------------------------------------------------------------- task payloads

/**
 * What a task of the task manager carries to its runner (src/app/tasks.ts), one shape per kind: the machine reads
 * only what every kind shares (a missing local file after a reload, a batch that pauses), the runner switches on
 * `kind`, and the journal keeps the ones it restores. A local file is absent after a reload until picked again;
 * `resume` then continues the journal's upload.
 */
export type TaskPayload =
  | ShareUploadPayload
  | ShareBatchPayload
  | RequestUploadPayload
  | ReceiptUploadPayload
  | FsUploadPayload
  | FsBatchUploadPayload
  | FsCopyPayload
  | FsDeletePayload
  | FsDownloadPayload
  | ServerJobPayload;

/**
 * A copy, move or sync the server runs as a job (contract/jobs.ts): the task follows the job's events, and its
 * cancel, pause, resume and retry are sent to the server. Closing the tab does not stop it.
 */
export interface ServerJobPayload {
  kind: 'serverJob';
  jobId: string;
}

/**
 * How a server job's task ends: the job as it ended, its failures as the task manager lists failures, and the
 * names it found taken (reason `fs_exists`), for the user to decide on.
 */
export interface ServerJobResult {
  job: Job;
  failed: { path: string; error: TransferError }[];
  conflicts?: FsConflict[];
}

/** One file, or what a web address serves, as a file share (the upload page). */
export interface ShareUploadPayload {
  kind: 'shareUpload';
  file?: File;
  url?: string;
  /** For URL uploads: the name to give the file. */
  filename?: string;
  mimetype: string;
  storageConfigId?: string;
  options: ShareOptions;
  resume?: boolean;
}

/**
 * Files shared together on the upload page: one task, each file its own share. `fromFolder` is for the row's
 * re-pick after a reload, as a mount batch's (shared files are picked as files, never as a folder).
 */
export interface ShareBatchPayload {
  kind: 'shareBatchUpload';
  files?: BatchFile[];
  count: number;
  fromFolder: false;
  storageConfigId?: string;
  options: ShareOptions;
  resume?: boolean;
}

/** A file sent through a file request, with the sender's grant this browser holds for `slug`. */
export interface RequestUploadPayload {
  kind: 'fileRequestUpload';
  slug: string;
  file?: File;
  resume?: boolean;
}

/** A receipt of the expense claim `claimId`. */
export interface ReceiptUploadPayload {
  kind: 'receiptUpload';
  claimId: string;
  file?: File;
}

/** A local file into a mount folder; `relativePath` keeps a dropped folder's structure. */
export interface FsUploadPayload {
  kind: 'fsUpload';
  file?: File;
  folder: string;
  relativePath?: string;
  resume?: boolean;
}

/**
 * Files picked or dropped together into a mount folder: one task (`fromFolder`: picked again as a folder after a
 * reload, else as files). A folder picked as a handle (`directory`) is walked by the worker, so its count is not
 * known here.
 */
export interface FsBatchUploadPayload {
  kind: 'fsBatchUpload';
  files?: BatchFile[];
  directory?: FileSystemDirectoryHandle;
  folder: string;
  count: number;
  fromFolder: boolean;
  resume?: boolean;
}

/** A copy, or a move (`operation`; absent in records of copies kept before moves existed). */
export interface FsCopyPayload {
  kind: 'fsCopy';
  items: FsCopyItem[];
  operation?: 'copy' | 'move';
}

export interface FsDeletePayload {
  kind: 'fsDelete';
  paths: string[];
}

/**
 * Where a zip goes: a file the user picked (File System Access API), or a download the browser saves as it
 * streams (through the service worker), opened when the task runs: a retry starts a new one.
 */
export type ZipDestination = { kind: 'file'; handle: FileSystemFileHandle } | { kind: 'download' };

export interface FsDownloadPayload {
  kind: 'fsDownload';
  paths: string[];
  name: string;
  saveTo: ZipDestination;
}

/** The payloads of the mount explorer's tasks. */
export type ExplorerTaskPayload = FsUploadPayload | FsBatchUploadPayload | FsCopyPayload | FsDeletePayload | FsDownloadPayload;

/** Batch uploads pause: the engine keeps what the server acknowledged (or shared), and a resume sends the rest. */
export const isBatchPayload = (payload: TaskPayload): payload is FsBatchUploadPayload | ShareBatchPayload =>
  payload.kind === 'fsBatchUpload' || payload.kind === 'shareBatchUpload';

/** How a copy, delete or zip download is kept in the journal: the page's task, and what its runs before did. */
export interface ItemsTaskRecord {
  taskType: Exclude<TaskType, 'upload'>;
  label: string;
  payload: FsCopyPayload | FsDeletePayload | FsDownloadPayload;
  /** The result of the runs before this one (a retry runs only their failures): the journal keeps the whole task's. */
  previous?: FsItemsResult;
}

/** Remove files and folders in batches, with a result per path. */
export interface FsDelete {
  taskId: string;
  api: ApiAccess;
  paths: string[];
}

/**
 * Several files or folders as one zip, built as it streams (stored, no recompression): written straight into a
 * file the user picked (File System Access API), or, where the browser has no such API, into a stream the page
 * hands on to a download through its service worker.
 */
export interface FsZipDownload {
  taskId: string;
  api: ApiAccess;
  paths: string[];
  /** The zip's file name. */
  name: string;
  sink: { kind: 'file'; handle: FileSystemFileHandle } | { kind: 'stream'; writable: WritableStream<Uint8Array> };
}

/**
 * Per-item result of copy, move, delete, download and batch upload tasks: what is done, and what failed with why.
 * `replaced` and `renamed` are the done items that replaced a file or were written under a new name; `conflicts`
 * the items left undone because their name was taken, for the user to decide on.
 */
export interface FsItemsResult {
  succeeded: string[];
  skipped: string[];
  failed: { path: string; error: TransferError }[];
  replaced?: string[];
  renamed?: string[];
  conflicts?: FsConflict[];
}

/**
 * A task's result after a run that did only what the runs before left undone (a retry, or a run after the user
 * decided on conflicts): what each run did, the failures a retry did not try again, and this run's conflicts.
 */
export function joinItemsResults(previous: FsItemsResult, result: FsItemsResult): FsItemsResult {
  return {
    ...result,
    succeeded: [...previous.succeeded, ...result.succeeded],
    skipped: [...previous.skipped, ...result.skipped],
    replaced: [...(previous.replaced ?? []), ...(result.replaced ?? [])],
    renamed: [...(previous.renamed ?? []), ...(result.renamed ?? [])],
    failed: [...previous.failed.filter(({ error }) => !isRetryable(error)), ...result.failed],
  };
}

/** Uploads into a mount make no share: the journal's share options are empty for them. */
export const NO_SHARE_OPTIONS: ShareOptions = { expires_in: 0, max_views: 0 };

export interface TransferProgress {
  /** Bytes done (for uploads: uploaded parts plus the current part's loaded bytes). */
  loaded: number;
  total: number;
  /** 0–100, rounded down. */
  percent: number;
  /** Bytes per second, smoothed. */
  speed: number;
  /** Seconds left at the current speed; null while unknown. */
  secondsLeft: number | null;
}

export type EngineEvent =
  | { type: 'engine.stage'; taskId: string; stage: UploadStage }
  | { type: 'engine.progress'; taskId: string; progress: TransferProgress }
  /** Tasks over many items: the item being worked on and the counts so far. */
  | { type: 'engine.item'; taskId: string; currentFile: string; counts: { success: number; skipped: number; failed: number } };

/**
 * Progress updates sent across the worker boundary, at most, per task and second. Up to 10 would do for a smooth bar; each
 * one costs the page's main thread a message, a render and a frame (3 to 13 ms on the shared 2-core machine), and
 * the row's figures change once a second anyway (PROGRESS_FIGURES_EVERY_MS): at two a second, the bar's second step
 * cost 30-40 ms of the page's main thread per GiB uploaded. A slower transfer sends fewer: an update that would show
 * nothing new is not sent (see the worker's ProgressMeter).
 */
export const PROGRESS_EVENTS_PER_SECOND = 1;
/** How often a transfer's speed and time left are worked out afresh for the page: often enough to follow, slow enough to read. */
export const PROGRESS_FIGURES_EVERY_MS = 1000;
/** A request to storage that makes no progress for this long fails with `timeout`. */
export const PART_TIMEOUT_MS = 300_000;

/** How many part requests the engine keeps in flight: per upload, and across all uploads together. */
export interface TransferConcurrency {
  perUpload: number;
  global: number;
}
export const DEFAULT_CONCURRENCY: TransferConcurrency = { perUpload: 3, global: 6 };
/** The choices offered for parts per upload (more rarely helps a browser: it opens 6 connections per host). */
export const PARTS_PER_UPLOAD_CHOICES = [1, 2, 3, 4, 5, 6] as const;

/** The concurrency for `perUpload` parts per upload: the global cap stays the default unless that is lower. */
export const concurrencyFor = (perUpload: number): TransferConcurrency => ({
  perUpload,
  global: Math.max(DEFAULT_CONCURRENCY.global, perUpload),
});

/** A file as the journal remembers it: enough to ask the user for the same file again after a reload. */
export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
  type: string;
}

/** A file of a batch as the journal remembers it. */
export interface BatchFileIdentity extends FileIdentity {
  relativePath: string;
}

export interface JournalPart {
  partNumber: number;
  size: number;
  etag: string;
}

/**
 * single: one presigned PUT; multipart: a local file in parts; url: bytes fetched from a web address (all three
 * file shares); fs: a local file into a mount folder (`fsFolder`), in parts or one PUT; fsBatch: files picked
 * together into a mount folder (`batchFiles`), acknowledged a group at a time (`itemsDone`); shareBatch: files picked
 * together as file shares (`batchFiles`), each recorded with its share as it is done (`itemsDone` with `shares`);
 * fsItems: a copy, delete or zip download of mount paths, kept so that the list after a reload is the list before it;
 * fileRequest: a local file sent through a file request (`requestSlug`), in parts.
 */
export type JournalKind = 'single' | 'multipart' | 'url' | 'fs' | 'fsBatch' | 'shareBatch' | 'fsItems' | 'fileRequest';

export type JournalStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** What a task is about, fixed when it is queued. */
export interface JournalTaskSpec {
  taskId: string;
  kind: JournalKind;
  label: string;
  file?: FileIdentity;
  url?: string;
  mimetype: string;
  storageConfigId?: string;
  options: ShareOptions;
  /** For `fs` uploads: the mount folder the file goes in, ending in `/`. */
  fsFolder?: string;
  /** For `fileRequest` uploads: the request's slug. */
  requestSlug?: string;
  /** For `fsBatch` and `shareBatch`: every file of the batch, enough to match the files picked again after a reload. */
  batchFiles?: BatchFileIdentity[];
  /** A large file's own upload inside a batch: the batch's task id (the list shows the batch, not these). */
  batchOf?: string;
  /** For `fsItems`: the page's task as it was added (its type and what its runner needs), opaque to the engine. */
  itemsTask?: ItemsTaskRecord;
  partSize: number;
  partCount: number;
  size: number;
}

/**
 * The append-only log of one task, as the worker writes it. A task's state is rebuilt from these after a
 * reload; finished parts are never sent twice.
 */
export type JournalEvent =
  | ({ type: 'queued'; at: number } & JournalTaskSpec)
  | { type: 'started'; taskId: string; at: number; fileId: string; uploadId: string }
  | { type: 'partDone'; taskId: string; at: number; part: JournalPart }
  /** Files of a batch the server acknowledged, by relative path; for a share batch, with their shares. */
  | { type: 'itemsDone'; taskId: string; at: number; paths: string[]; shares?: ShareBatchEntry[] }
  | { type: 'completed'; taskId: string; at: number; result: unknown }
  | { type: 'failed'; taskId: string; at: number; error: TransferError }
  | { type: 'cancelled'; taskId: string; at: number };

/** A task rebuilt from its journal. */
export interface JournalTask extends JournalTaskSpec {
  fileId?: string;
  uploadId?: string;
  /** Finished parts by number. */
  parts: Record<number, JournalPart>;
  /** For `fsBatch` and `shareBatch`: the relative paths acknowledged so far. */
  done?: string[];
  /** For `shareBatch`: the shares of the files done so far, in the order they were done. */
  shares?: ShareBatchEntry[];
  status: JournalStatus;
  error?: TransferError;
  result?: unknown;
  queuedAt: number;
}
