import * as v from 'valibot';
import { numberish, optionalPassword, optionalSlug } from './lenient';
import { offsetPaginationSchema, offsetQuery } from './lists';
import { isoTimestampSchema } from './time';

export const ADMIN_FILE_PAGE_SIZE = 50;
export const FILE_PAGE_SIZE_MAX = 200;
export const FILE_REMARK_MAX = 500;
export const FILENAME_MAX = 255;
/** Lifetime of presigned upload URLs and of uncommitted upload records. */
export const PRESIGN_TTL_SECONDS = 3600;
/** Lifetime of the signed preview/download links handed out with a counted view. */
export const FILE_LINK_TTL_SECONDS = 3600;

/** Extensions sent as Markdown. */
export const MARKDOWN_EXTENSIONS = ['md', 'markdown', 'mdown', 'mkd', 'mdwn', 'mdtxt', 'mdtext', 'rmd'] as const;

/** The MIME type a file is sent with: Markdown by extension, else its own type, else generic binary. */
export function uploadMimeType(filename: string, browserType: string): string {
  const extension = filename.split('.').pop()?.toLowerCase() ?? '';
  if ((MARKDOWN_EXTENSIONS as readonly string[]).includes(extension)) return 'text/markdown';
  return browserType || 'application/octet-stream';
}

const filenameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'required'),
  v.maxLength(FILENAME_MAX, 'too_long'),
  v.check((name) => !name.includes('/') && !name.includes('\\') && !name.includes(String.fromCharCode(0)), 'invalid_characters'),
);
const maxViewsSchema = numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative')));
/** Hours until the share expires; 0 = never. */
const expiresInSchema = numberish(v.pipe(v.number(), v.minValue(0, 'must_not_be_negative'), v.maxValue(24 * 365 * 100, 'too_large')));
const remarkSchema = v.pipe(v.string(), v.trim(), v.maxLength(FILE_REMARK_MAX, 'too_long'));
const passwordSchema = v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(128, 'too_long'));

/** Share options common to every way a file arrives (form upload, presign + commit, URL upload). */
export const shareOptionsSchema = v.object({
  slug: optionalSlug,
  remark: v.optional(remarkSchema),
  password: optionalPassword(passwordSchema),
  expires_in: v.optional(expiresInSchema, 0),
  max_views: v.optional(maxViewsSchema, 0),
});

/** `POST /api/upload` form fields besides `file` (all text, as multipart forms carry them). */
export const uploadFormSchema = v.object({
  s3_config_id: v.optional(v.string()),
  mimetype: v.optional(v.string()),
  path: v.optional(v.string()),
  slug: v.optional(v.string()),
  remark: v.optional(v.string()),
  password: v.optional(v.string()),
  expires_in: v.optional(v.string()),
  max_views: v.optional(v.string()),
  /** Before the file: what a JPEG, WebP, HEIC or AVIF photo loses (`none`, `location`, `all` but orientation); default the system setting. */
  strip_metadata: v.optional(v.picklist(['none', 'location', 'all'])),
});

/** `POST /api/s3/presign`. */
export const presignRequestSchema = v.object({
  s3_config_id: v.optional(v.string()),
  filename: filenameSchema,
  mimetype: v.optional(v.string(), 'application/octet-stream'),
  path: v.optional(v.string()),
  slug: optionalSlug,
  size: numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative'))),
});
export type PresignRequest = v.InferInput<typeof presignRequestSchema>;

export const presignResponseSchema = v.object({
  upload_url: v.string(),
  file_id: v.string(),
  storage_path: v.string(),
  s3_url: v.string(),
  slug: v.string(),
  provider_type: v.string(),
  contentType: v.string(),
  /** Seconds the upload URL stays valid. */
  expires_in: v.number(),
});
export type PresignResponse = v.InferOutput<typeof presignResponseSchema>;

/** `POST /api/s3/commit`: the client PUT the bytes; the server checks the object and finishes the record. */
export const commitRequestSchema = v.object({
  file_id: v.string(),
  s3_config_id: v.optional(v.string()),
  storage_path: v.optional(v.string()),
  s3_url: v.optional(v.string()),
  filename: v.optional(filenameSchema),
  mimetype: v.optional(v.string()),
  size: v.optional(numberish(v.number())),
  etag: v.optional(v.string()),
  ...shareOptionsSchema.entries,
});
export type CommitRequest = v.InferInput<typeof commitRequestSchema>;

export const FILE_STATES = ['active', 'expired', 'used_up'] as const;
export type FileState = (typeof FILE_STATES)[number];

/** A file share record, as upload, commit and the management lists answer it. */
export const fileShareSchema = v.object({
  id: v.string(),
  slug: v.string(),
  filename: v.string(),
  mimetype: v.string(),
  size: v.number(),
  s3_config_id: v.string(),
  storage_path: v.string(),
  s3_url: v.nullable(v.string()),
  etag: v.nullable(v.string()),
  remark: v.nullable(v.string()),
  hasPassword: v.boolean(),
  expiresAt: v.nullable(v.string()),
  maxViews: v.number(),
  views: v.number(),
  state: v.picklist(FILE_STATES),
  created_by: v.string(),
  created_at: v.string(),
  /** The share page: `/file/{slug}`. */
  url: v.string(),
});
export type FileShare = v.InferOutput<typeof fileShareSchema>;

/**
 * `PUT /api/upload-direct/{filename}` (CloudPaste's one-request upload): the share, and CloudPaste's names of what
 * its answer carried (`max_views` null: no limit; the links without any password).
 */
export const directUploadSchema = v.object({
  ...fileShareSchema.entries,
  requires_password: v.boolean(),
  max_views: v.nullable(v.number()),
  expires_at: v.nullable(v.string()),
  previewUrl: v.string(),
  downloadUrl: v.string(),
  /** Whether the object is stored under the file's own name (`original_filename=true`), not a random prefix and it. */
  used_original_filename: v.boolean(),
});
export type DirectUpload = v.InferOutput<typeof directUploadSchema>;

/** A yes/no of a query as CloudPaste writes it; absent: no. */
const queryFlag = v.optional(v.picklist(['true', 'false'], 'invalid_choice'));

/**
 * The query of `PUT /api/upload-direct/{filename}`: the fields `POST /api/upload`'s form takes beside its file, and
 * CloudPaste's `override` (the upload replaces the caller's share that holds the slug, or the file name below) and
 * `original_filename` (the object is stored under the file's own name in its folder, without a random prefix).
 */
export const directUploadQuerySchema = v.object({
  ...uploadFormSchema.entries,
  override: queryFlag,
  original_filename: queryFlag,
});

export const fileListSchema = v.object({ items: v.array(fileShareSchema), pagination: offsetPaginationSchema });
export const fileListQuerySchema = offsetQuery(ADMIN_FILE_PAGE_SIZE, FILE_PAGE_SIZE_MAX);

/** `PUT /api/admin/files/{id}` (and the user twin). password null clears it; expiresAt null = never. */
export const updateFileRequestSchema = v.object({
  remark: v.optional(remarkSchema),
  slug: optionalSlug,
  expiresAt: v.optional(v.nullable(isoTimestampSchema)),
  maxViews: v.optional(maxViewsSchema),
  password: v.optional(v.nullable(passwordSchema)),
});
export type UpdateFileRequest = v.InferInput<typeof updateFileRequestSchema>;

export const verifyFileRequestSchema = v.object({ password: v.string() });

/** `data` of a 413: what did not fit. Sizes in bytes. */
export const tooLargeDataSchema = v.looseObject({
  fileSize: v.optional(v.number()),
  maxUploadSize: v.optional(v.number()),
  remaining: v.optional(v.number()),
  total: v.optional(v.number()),
});

/** `GET /api/admin/dashboard/stats`. */
export const dashboardStatsSchema = v.object({
  totalPastes: v.number(),
  /** Uploads and downloads running now on every instance (the admin's task manager). */
  transfersInFlight: v.number(),
  totalFiles: v.number(),
  totalApiKeys: v.number(),
  totalS3Configs: v.number(),
  totalStorageUsed: v.number(),
  s3Buckets: v.array(
    v.object({
      id: v.string(),
      name: v.string(),
      providerType: v.string(),
      bucketName: v.string(),
      usedStorage: v.number(),
      totalStorage: v.nullable(v.number()),
      fileCount: v.number(),
      usagePercent: v.nullable(v.number()),
    }),
  ),
  /** Oldest day first; today last. */
  lastWeekPastes: v.pipe(v.array(v.number()), v.length(7)),
  lastWeekFiles: v.pipe(v.array(v.number()), v.length(7)),
  /** Expense claims submitted or in processing. */
  expensesAwaitingReview: v.number(),
});
export type DashboardStats = v.InferOutput<typeof dashboardStatsSchema>;
