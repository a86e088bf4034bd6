import * as v from 'valibot';
import { FS_PATH_MAX_BYTES } from './fs-paths';
import { mimeTypeOf } from './mime';
import { customSlugSchema } from './slugs';
import { isoTimestampSchema } from './time';
import { MAX_PART_COUNT, MAX_PARTS_SIGNED_AT_ONCE, MIN_PART_BYTES, partNumberSchema } from './parts';

/**
 * File requests: a link (`/request/{slug}`) through which people without an account send files to its creator,
 * into a folder of a mount or as file shares, within the limits the creator set. The rules both sides check (a
 * file's type against the allowed ones, a request's state) live here.
 */

export const FILE_REQUEST_TITLE_MAX = 200;
export const FILE_REQUEST_MESSAGE_MAX = 5000;
export const FILE_REQUEST_SENDER_NAME_MAX = 100;
export const FILE_REQUEST_TYPES_MAX = 50;
/** The header that carries a sender's grant: `Authorization: FileRequest <grant>`. */
export const FILE_REQUEST_GRANT_SCHEME = 'FileRequest';
/** How long a grant lets its sender upload: a working day, so that an upload resumed after a reload still may go on. */
export const FILE_REQUEST_GRANT_SECONDS = 12 * 3600;

export const FILE_REQUEST_STATES = ['open', 'closed', 'expired', 'full'] as const;
export type FileRequestState = (typeof FILE_REQUEST_STATES)[number];

export const fileRequestTargetSchema = v.variant('kind', [
  v.object({ kind: v.literal('folder'), path: v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(4096, 'too_long')) }),
  v.object({ kind: v.literal('shares') }),
]);
export type FileRequestTarget = v.InferOutput<typeof fileRequestTargetSchema>;

/**
 * An allowed type: an extension (`.pdf`), a MIME type (`application/pdf`) or a family (`image/*`). Lower case, so
 * that the check is the same on both sides.
 */
export const allowedTypeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.transform((type) => type.toLowerCase()),
  v.regex(/^(\.[a-z0-9][a-z0-9_+-]{0,19}|[a-z0-9][a-z0-9.+-]{0,60}\/(\*|[a-z0-9][a-z0-9.+-]{0,100}))$/, 'invalid_type'),
);

/** Whether a file of this name may be sent where `allowed` are the request's types (none: any type). */
export function typeAllowed(filename: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 ? filename.slice(dot).toLowerCase() : '';
  const mime = mimeTypeOf(filename);
  return allowed.some((type) =>
    type.startsWith('.') ? type === extension : type.endsWith('/*') ? mime.startsWith(type.slice(0, -1)) : type === mime,
  );
}

/** The `accept` filter of a file picker for these types (none: anything). */
export const acceptOf = (allowed: readonly string[]): string | undefined => (allowed.length > 0 ? allowed.join(',') : undefined);

const byteLimitSchema = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, 'must_be_positive'), v.maxValue(Number.MAX_SAFE_INTEGER, 'too_large')));
const titleSchema = v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(FILE_REQUEST_TITLE_MAX, 'too_long'));
const messageSchema = v.pipe(v.string(), v.trim(), v.maxLength(FILE_REQUEST_MESSAGE_MAX, 'too_long'));
const expiresAtSchema = v.nullable(isoTimestampSchema);
const limitFields = {
  max_files: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, 'must_be_positive'), v.maxValue(100_000, 'too_large'))),
  max_file_size: byteLimitSchema,
  max_total_size: byteLimitSchema,
  allowed_types: v.pipe(v.array(allowedTypeSchema), v.maxLength(FILE_REQUEST_TYPES_MAX, 'too_many')),
};

/** `POST /api/file-requests`. A password of `''` or none: anyone with the link may send. */
export const createFileRequestSchema = v.object({
  title: titleSchema,
  message: v.optional(messageSchema, ''),
  target: fileRequestTargetSchema,
  password: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200, 'too_long')))),
  expires_at: v.optional(expiresAtSchema, null),
  max_files: v.optional(limitFields.max_files, null),
  max_file_size: v.optional(limitFields.max_file_size, null),
  max_total_size: v.optional(limitFields.max_total_size, null),
  allowed_types: v.optional(limitFields.allowed_types, []),
  show_uploads: v.optional(v.boolean(), false),
  /** A link suffix of one's own (the share rules, in the requests' own slug space); random when absent. */
  slug: v.optional(customSlugSchema),
});
export type CreateFileRequest = v.InferInput<typeof createFileRequestSchema>;

/** `PATCH /api/file-requests/{id}`: any of the settings but the target; `password: null` removes it; `closed` closes or reopens. */
export const updateFileRequestSchema = v.partial(
  v.object({
    title: titleSchema,
    message: messageSchema,
    password: v.nullable(v.pipe(v.string(), v.maxLength(200, 'too_long'))),
    expires_at: expiresAtSchema,
    ...limitFields,
    show_uploads: v.boolean(),
    closed: v.boolean(),
  }),
);
export type UpdateFileRequest = v.InferInput<typeof updateFileRequestSchema>;

const limitsSchema = v.object({
  max_files: v.nullable(v.number()),
  max_file_size: v.nullable(v.number()),
  max_total_size: v.nullable(v.number()),
  allowed_types: v.array(v.string()),
});
export type FileRequestLimits = v.InferOutput<typeof limitsSchema>;

/** A request as its creator sees it. */
export const fileRequestSchema = v.object({
  id: v.string(),
  slug: v.string(),
  title: v.string(),
  message: v.string(),
  target: fileRequestTargetSchema,
  has_password: v.boolean(),
  expires_at: v.nullable(v.string()),
  ...limitsSchema.entries,
  show_uploads: v.boolean(),
  closed: v.boolean(),
  state: v.picklist(FILE_REQUEST_STATES),
  files_received: v.number(),
  bytes_received: v.number(),
  created_by: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
});
export type FileRequest = v.InferOutput<typeof fileRequestSchema>;

export const fileRequestListSchema = v.object({ items: v.array(fileRequestSchema), total: v.number() });

/** A file received. `path`: where it landed in a folder request; `share_slug`: its file share in a shares request. */
export const fileRequestUploadSchema = v.object({
  id: v.string(),
  /** The name it is stored under: in a folder, a free name ("contract (1).pdf") when the name was taken. */
  filename: v.string(),
  /** The name its sender gave it. */
  sent_name: v.string(),
  size: v.number(),
  content_type: v.string(),
  sender_name: v.nullable(v.string()),
  path: v.nullable(v.string()),
  share_slug: v.nullable(v.string()),
  created_at: v.string(),
});
export type FileRequestUpload = v.InferOutput<typeof fileRequestUploadSchema>;
export const fileRequestUploadListSchema = v.object({ items: v.array(fileRequestUploadSchema) });

/** `GET /api/public/file-requests/{slug}`: what a sender sees before anything is spent. */
export const publicFileRequestSchema = v.object({
  slug: v.string(),
  title: v.string(),
  message: v.string(),
  state: v.picklist(FILE_REQUEST_STATES),
  has_password: v.boolean(),
  expires_at: v.nullable(v.string()),
  ...limitsSchema.entries,
  show_uploads: v.boolean(),
  files_received: v.number(),
  bytes_received: v.number(),
});
export type PublicFileRequest = v.InferOutput<typeof publicFileRequestSchema>;

/** `POST /api/public/file-requests/{slug}/grant`. */
export const fileRequestGrantRequestSchema = v.object({
  password: v.optional(v.pipe(v.string(), v.maxLength(200, 'too_long'))),
  sender_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(FILE_REQUEST_SENDER_NAME_MAX, 'too_long'))),
});
export const fileRequestGrantSchema = v.object({ grant: v.string(), expires_in: v.number() });
export type FileRequestGrant = v.InferOutput<typeof fileRequestGrantSchema>;

/** The sender's multipart calls mirror the share upload API (`/api/s3/multipart/*`); `file_id` names the received file. */
export const fileRequestInitSchema = v.object({
  // The server keeps the name's last segment and checks its bytes against the storage (`name_too_long`).
  filename: v.pipe(v.string(), v.trim(), v.minLength(1, 'required'), v.maxLength(FS_PATH_MAX_BYTES, 'too_long')),
  content_type: v.optional(v.string(), 'application/octet-stream'),
  size: v.pipe(v.number(), v.integer(), v.minValue(1, 'must_be_positive')),
  part_size: v.pipe(v.number(), v.integer(), v.minValue(MIN_PART_BYTES, 'too_small')),
});
export const fileRequestInitResponseSchema = v.object({ file_id: v.string(), upload_id: v.string(), filename: v.string(), part_size: v.number(), part_count: v.number() });
export type FileRequestInitResponse = v.InferOutput<typeof fileRequestInitResponseSchema>;

const refEntries = { file_id: v.string(), upload_id: v.string() };
export const fileRequestRefSchema = v.object(refEntries);
export const fileRequestSignSchema = v.object({
  ...refEntries,
  partNumbers: v.pipe(v.array(partNumberSchema), v.minLength(1), v.maxLength(MAX_PARTS_SIGNED_AT_ONCE)),
});
export const fileRequestCompleteSchema = v.object({
  ...refEntries,
  parts: v.pipe(v.array(v.object({ partNumber: partNumberSchema, etag: v.pipe(v.string(), v.minLength(1)) })), v.minLength(1), v.maxLength(MAX_PART_COUNT)),
});

/** The request's state: closed by its creator, past its expiry, or holding as many files or bytes as it may. */
export function fileRequestState(
  request: Pick<FileRequest, 'closed' | 'expires_at' | 'max_files' | 'max_total_size' | 'files_received' | 'bytes_received'>,
  now: Date,
): FileRequestState {
  if (request.closed) return 'closed';
  if (request.expires_at !== null && new Date(request.expires_at).getTime() <= now.getTime()) return 'expired';
  if (request.max_files !== null && request.files_received >= request.max_files) return 'full';
  if (request.max_total_size !== null && request.bytes_received >= request.max_total_size) return 'full';
  return 'open';
}

/** Why a file cannot be sent under these limits (checked in the page before upload, and by the server). */
export type FileRefusal = 'too_large' | 'type_not_allowed';

/** Why a file of a sender's choice does not fit what the request still takes: its file count or its total size. */
export type RoomRefusal = FileRefusal | 'too_many_files' | 'over_total';

/**
 * Each file of one choice with why it is refused, if it is, in order: under the per-file limits, then within the
 * files and bytes the request has room for after what it has received (and the files before it in the choice).
 * The page refuses these before anything is uploaded; the server checks the same again.
 */
export function refusalsOfChoice<F extends { name: string; size: number }>(
  files: readonly F[],
  request: FileRequestLimits & { files_received: number; bytes_received: number },
): { file: F; refusal?: RoomRefusal }[] {
  let count = request.files_received;
  let bytes = request.bytes_received;
  return files.map((file) => {
    const refusal: RoomRefusal | undefined =
      fileRefusal(file, request) ??
      (request.max_files !== null && count + 1 > request.max_files
        ? 'too_many_files'
        : request.max_total_size !== null && bytes + file.size > request.max_total_size
          ? 'over_total'
          : undefined);
    if (!refusal) {
      count += 1;
      bytes += file.size;
    }
    return { file, refusal };
  });
}
export function fileRefusal(file: { name: string; size: number }, limits: FileRequestLimits): FileRefusal | undefined {
  if (!typeAllowed(file.name, limits.allowed_types)) return 'type_not_allowed';
  if (limits.max_file_size !== null && file.size > limits.max_file_size) return 'too_large';
  return undefined;
}
