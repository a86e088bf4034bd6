import * as v from 'valibot';
import { fsBatchCopyRequestSchema, fsConflictPolicySchema } from './fs';
import { fsPathSchema } from './fs-paths';
import { offsetPaginationSchema, offsetQuery } from './lists';

/**
 * Server jobs: copies, moves and syncs between mounts that the server runs itself, from a durable record, so they go
 * on without the browser's tab and survive a restart. The live transfers: what the server is receiving or sending
 * right now, on any instance, for the admin's task manager.
 */

export const JOB_TYPES = ['copy', 'move', 'sync'] as const;
export type JobType = (typeof JOB_TYPES)[number];

/**
 * `partial`: ended with some items failed (the rest done); `failed`: ended with nothing done, or could not start.
 * `paused` holds its place: `resume` goes on from the parts recorded.
 */
export const JOB_STATUSES = ['queued', 'running', 'paused', 'completed', 'partial', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_END_STATUSES: readonly JobStatus[] = ['completed', 'partial', 'failed', 'cancelled'];
export const isJobEnded = (status: JobStatus) => JOB_END_STATUSES.includes(status);

/**
 * `copy-new-and-changed` copies what the target lacks or has with another size or modification time (or ETag) and
 * never deletes; `mirror` also deletes from the target what the source lacks, and must be confirmed.
 */
export const SYNC_MODES = ['copy-new-and-changed', 'mirror'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

const mountPathField = v.pipe(v.string(), v.minLength(1, 'required'), fsPathSchema);

export const createJobRequestSchema = v.variant('type', [
  v.object({
    type: v.literal('copy'),
    items: fsBatchCopyRequestSchema.entries.items,
    onConflict: v.optional(fsConflictPolicySchema, 'skip'),
  }),
  v.object({
    type: v.literal('move'),
    items: fsBatchCopyRequestSchema.entries.items,
    onConflict: v.optional(fsConflictPolicySchema, 'fail'),
  }),
  v.object({
    type: v.literal('sync'),
    source: mountPathField,
    target: mountPathField,
    mode: v.optional(v.picklist(SYNC_MODES, 'invalid_choice'), 'copy-new-and-changed'),
    /** A `mirror` deletes in the target: refused (400 `mirror_unconfirmed`) unless this is true. */
    confirmMirror: v.optional(v.boolean(), false),
  }),
]);
export type CreateJobRequest = v.InferOutput<typeof createJobRequestSchema>;
/** What a client sends (paths as text). */
export type CreateJobBody = v.InferInput<typeof createJobRequestSchema>;

/** `retry-failed`: the user's choice for the names the run found taken, when they made one. */
export const retryJobRequestSchema = v.object({ onConflict: v.optional(fsConflictPolicySchema) });

/** Who started a job or a transfer, as the admin's task manager names them. */
export const actorSchema = v.object({
  kind: v.picklist(['admin', 'apiKey', 'fileRequest', 'visitor', 'schedule']),
  /** The admin's user name, the key's name, the file request's title, the schedule's `source → target`. */
  name: v.string(),
  /** The key's, file request's or schedule's id. */
  id: v.optional(v.string()),
});
export type Actor = v.InferOutput<typeof actorSchema>;

export const jobFailureSchema = v.object({
  path: v.string(),
  /** A reason code (`fs_exists`, `storage_unavailable`, `quota_exceeded`, …), never a server path or errno. */
  reason: v.string(),
  /** The reason in the caller's language. */
  message: v.string(),
});
export type JobFailure = v.InferOutput<typeof jobFailureSchema>;

const countsSchema = v.object({ total: v.number(), done: v.number(), skipped: v.number(), failed: v.number() });

export const jobSchema = v.object({
  id: v.string(),
  type: v.picklist(JOB_TYPES),
  status: v.picklist(JOB_STATUSES),
  createdBy: actorSchema,
  /** One line naming what moves where: `3 items → /s3/backup`, `/local/photos → /s3/photos`. */
  summary: v.string(),
  /** The target folder (copy, move) or the target path (sync). */
  target: v.string(),
  onConflict: fsConflictPolicySchema,
  syncMode: v.nullable(v.picklist(SYNC_MODES)),
  scheduleId: v.nullable(v.string()),
  /** Files (not folders). `total` grows while the items are still being listed. */
  items: countsSchema,
  bytes: v.object({ total: v.number(), done: v.number() }),
  /** Bytes a second over the last seconds, while running. */
  speed: v.nullable(v.number()),
  currentItem: v.nullable(v.string()),
  /** The first failures (at most 100); `items.failed` counts them all. */
  failures: v.array(jobFailureSchema),
  /**
   * Why the server ended the whole job itself (`api_key_invalid`: the key it acts as was deleted or expired), in the
   * caller's language; absent or null otherwise.
   */
  error: v.optional(v.nullable(v.object({ reason: v.string(), message: v.string() }))),
  createdAt: v.string(),
  startedAt: v.nullable(v.string()),
  finishedAt: v.nullable(v.string()),
  updatedAt: v.string(),
});
export type Job = v.InferOutput<typeof jobSchema>;

export const jobListQuerySchema = v.object({
  ...offsetQuery(50, 200).entries,
  status: v.optional(v.picklist(JOB_STATUSES, 'invalid_choice')),
});
export const jobListSchema = v.object({ items: v.array(jobSchema), pagination: offsetPaginationSchema });
export type JobList = v.InferOutput<typeof jobListSchema>;

// ---------------------------------------------------------------------------------------------- live transfers

export const TRANSFER_KINDS = ['share-upload', 'batch-upload', 'fs-upload', 'file-request-upload', 'webdav-put', 'webdav-get', 'download'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

export const TRANSFER_OUTCOMES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type TransferOutcome = (typeof TRANSFER_OUTCOMES)[number];

/** Downloads smaller than this are not shown: they end before anyone could watch them. */
export const WATCHED_DOWNLOAD_BYTES = 10 * 1024 * 1024;
/** Finished jobs and transfers stay in the admin's task manager this long. */
export const FINISHED_KEPT_MS = 24 * 3600 * 1000;

export const liveTransferSchema = v.object({
  id: v.string(),
  kind: v.picklist(TRANSFER_KINDS),
  direction: v.picklist(['in', 'out']),
  who: actorSchema,
  /** The file's name, or the mount path. */
  name: v.string(),
  bytesDone: v.number(),
  /** Unknown for a stream without a declared length. */
  bytesTotal: v.nullable(v.number()),
  speed: v.nullable(v.number()),
  /** Parts in flight, for multipart share uploads. */
  partsInFlight: v.nullable(v.number()),
  outcome: v.picklist(TRANSFER_OUTCOMES),
  /** The server instance that carries it. */
  instance: v.string(),
  startedAt: v.string(),
  updatedAt: v.string(),
  finishedAt: v.nullable(v.string()),
});
export type LiveTransfer = v.InferOutput<typeof liveTransferSchema>;
export const liveTransferListSchema = v.object({ items: v.array(liveTransferSchema) });

/**
 * What `GET …/jobs/events` and `GET /api/admin/transfers/events` send, one Server-Sent Event each (`event:` is the
 * `type`, `data:` this JSON). A new subscriber gets a `snapshot` first, then changes.
 */
export type LiveEvent =
  | { type: 'snapshot'; jobs: Job[]; transfers?: LiveTransfer[] }
  | { type: 'job'; job: Job }
  | { type: 'transfer'; transfer: LiveTransfer };

// ------------------------------------------------------------------------------------------ sync schedules

export const syncScheduleRequestSchema = v.object({
  source: mountPathField,
  target: mountPathField,
  /** Five fields (minute hour day month weekday), as cron reads them, in the server's time zone (UTC). */
  cron: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(120, 'too_long')),
  mode: v.optional(v.picklist(SYNC_MODES, 'invalid_choice'), 'copy-new-and-changed'),
  enabled: v.optional(v.boolean(), true),
  confirmMirror: v.optional(v.boolean(), false),
});
export type SyncScheduleRequest = v.InferOutput<typeof syncScheduleRequestSchema>;
/** What a client sends (paths as text). */
export type SyncScheduleBody = v.InferInput<typeof syncScheduleRequestSchema>;

export const syncScheduleSchema = v.object({
  id: v.string(),
  source: v.string(),
  target: v.string(),
  cron: v.string(),
  mode: v.picklist(SYNC_MODES),
  enabled: v.boolean(),
  nextRunAt: v.nullable(v.string()),
  lastRunAt: v.nullable(v.string()),
  lastJobId: v.nullable(v.string()),
  createdAt: v.string(),
});
export type SyncSchedule = v.InferOutput<typeof syncScheduleSchema>;

export const syncDryRunSchema = v.object({
  copy: v.array(v.object({ path: v.string(), size: v.number(), why: v.picklist(['new', 'changed']) })),
  delete: v.array(v.object({ path: v.string() })),
  /** Totals, when the lists above were cut at 1,000 entries each. */
  copyCount: v.number(),
  deleteCount: v.number(),
  bytes: v.number(),
});
export type SyncDryRun = v.InferOutput<typeof syncDryRunSchema>;

// ------------------------------------------------------------------------------------------ event streams

/** How long a browser waits before it reconnects a stream that broke (the `retry:` the server sends). */
export const STREAM_RETRY_MS = 2000;
/** A comment line this often keeps proxies from closing a quiet stream. */
export const STREAM_KEEP_ALIVE_MS = 15_000;

/** One event of a live stream, as the browser checks it before use. */
export const liveEventSchema = v.variant('type', [
  v.object({ type: v.literal('snapshot'), jobs: v.array(jobSchema), transfers: v.optional(v.array(liveTransferSchema)) }),
  v.object({ type: v.literal('job'), job: jobSchema }),
  v.object({ type: v.literal('transfer'), transfer: liveTransferSchema }),
]);
