import * as v from 'valibot';
import { FS_PATH_MAX_BYTES, fsPathSchema, toFsPath } from './fs-paths';
import { booleanish, nullableContentType, numberish } from './lenient';
import { MAX_PART_COUNT, partNumberSchema } from './parts';

/** The mount file system (`/api/admin/fs/*`, `/api/user/fs/*`). Paths are absolute, `/`-separated. */

/** Default lifetime of `file-link` URLs (7 days). */
export const FS_LINK_SECONDS = 604_800;

export const fsItemSchema = v.object({
  name: v.string(),
  /** Folders end in `/`. */
  path: v.string(),
  isDirectory: v.boolean(),
  /** A mount point or a folder above mount points: not a folder of any storage. */
  isVirtual: v.boolean(),
  size: v.number(),
  /** ISO time; null where the storage does not say (folders, virtual entries). */
  modified: v.nullable(v.string()),
  mimetype: v.nullable(v.string()),
  etag: v.nullable(v.string()),
});
export type FsItem = v.InferOutput<typeof fsItemSchema>;

export const fsListingSchema = v.object({
  path: v.string(),
  type: v.literal('directory'),
  isVirtual: v.boolean(),
  /** The mount the folder belongs to; null for virtual folders. */
  mountId: v.nullable(v.string()),
  items: v.array(fsItemSchema),
  /** With `limit` only: how many items the whole folder has. */
  total: v.optional(v.number()),
  /** With `limit` only: the `offset` of the next page; null once this page holds the last item. */
  nextOffset: v.optional(v.nullable(v.number())),
});
export type FsListing = v.InferOutput<typeof fsListingSchema>;

/** The most items one page of a listing holds (`limit`); more is refused rather than quietly cut. */
export const FS_LIST_PAGE_MAX = 10_000;

export const fsEntrySchema = v.object({
  ...fsItemSchema.entries,
  /**
   * The same as `mimetype`, under the name CloudPaste's `get` answers it. The server always sends it; absent still
   * parses, for answers stored before it existed (the browser's offline cache).
   */
  contentType: v.optional(v.nullable(v.string())),
  type: v.picklist(['file', 'directory']),
  mountId: v.nullable(v.string()),
});
export type FsEntry = v.InferOutput<typeof fsEntrySchema>;

/**
 * A path as the client sent it. Batch copies keep theirs as sent: each item's paths are checked on their own,
 * so that one bad item fails alone in the answer rather than the whole request.
 */
const sentPathField = v.pipe(v.string(), v.minLength(1, 'required'), v.maxLength(FS_PATH_MAX_BYTES, 'too_long'));
/** A path normalised by the rules of contract/fs-paths.ts; a refused one fails the request (400). */
const pathField = v.pipe(sentPathField, toFsPath);

/** A yes/no query flag: `true` and `1` say yes. */
const isYes = (flag: string) => flag === 'true' || flag === '1';

export const fsPathQuerySchema = v.object({
  path: v.optional(pathField, '/'),
  /** Any other value is a no. */
  refresh: v.pipe(v.optional(v.string(), 'false'), v.transform((flag) => isYes(flag))),
});
const pageField = (max: number) =>
  v.optional(numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative'), v.maxValue(max, 'too_large'))));
/**
 * `list`: with `limit`, one page of the folder's items from `offset` (in the order of the whole listing), plus
 * `total` and `nextOffset`; without it the whole folder, as CloudPaste's clients and WebDAV expect.
 */
export const fsListQuerySchema = v.object({
  ...fsPathQuerySchema.entries,
  offset: pageField(Number.MAX_SAFE_INTEGER),
  limit: v.pipe(pageField(FS_LIST_PAGE_MAX), v.check((limit) => limit !== 0, 'must_be_positive')),
});
/** `download` and `preview`: no path, or an empty one, is the root. */
export const fsFileQuerySchema = v.object({ path: v.optional(fsPathSchema, '/') });
export const fsMkdirRequestSchema = v.object({ path: pathField });
export const fsRenameRequestSchema = v.object({ oldPath: pathField, newPath: pathField });
export const fsUpdateRequestSchema = v.object({ path: pathField, content: v.string() });
export const fsBatchRemoveRequestSchema = v.object({
  paths: v.pipe(v.array(pathField), v.minLength(1, 'required'), v.maxLength(1000, 'too_many')),
});

export const fsLinkQuerySchema = v.object({
  path: pathField,
  expires_in: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must_be_integer'), v.transform(Number), v.minValue(1, 'must_be_positive'), v.maxValue(FS_LINK_SECONDS * 4, 'too_large')),
    String(FS_LINK_SECONDS),
  ),
  force_download: v.pipe(v.optional(v.picklist(['true', 'false', '1', '0'], 'invalid_choice'), 'false'), v.transform((flag) => isYes(flag))),
});
export const fsLinkSchema = v.object({ url: v.string(), expiresAt: v.string(), path: v.string() });

// --------------------------------------------------------------------------------------------------- conflicts

/**
 * What a write into a mount does when its target name is taken (by a file, or by a name another writer has
 * reserved): `skip` leaves the existing file alone, `replace` writes over it, `rename` writes under the next free
 * `name (1).ext` (chosen atomically: two writers never get the same one), `fail` answers `fs_exists` (409) for
 * that file. A folder in the way is never replaced: `replace` and `fail` fail, `skip` skips, `rename` renames.
 */
export const FS_CONFLICT_POLICIES = ['skip', 'replace', 'rename', 'fail'] as const;
export type FsConflictPolicy = (typeof FS_CONFLICT_POLICIES)[number];
export const fsConflictPolicySchema = v.picklist(FS_CONFLICT_POLICIES, 'invalid_choice');

/** What became of one file a write named, reported with its final path. */
export const FS_WRITE_OUTCOMES = ['created', 'replaced', 'skipped', 'renamed'] as const;
export type FsWriteOutcome = (typeof FS_WRITE_OUTCOMES)[number];
export const fsWriteOutcomeSchema = v.picklist(FS_WRITE_OUTCOMES);

/**
 * `POST /fs/exists {paths}`: what is at each path now, for a client to ask about conflicts before it writes. A
 * file carries its size and ETag; `sha256` is given (for files of at most FS_HASH_MAX_BYTES on storages that can
 * read them cheaply, LOCAL) when the request asks for hashes.
 */
export const FS_EXISTS_MAX_PATHS = 1000;
export const FS_HASH_MAX_BYTES = 16 * 1024 * 1024;
export const fsExistsRequestSchema = v.object({
  paths: v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'required'))), v.minLength(1, 'required'), v.maxLength(FS_EXISTS_MAX_PATHS, 'too_many')),
  hashes: v.optional(booleanish, false),
});
export const fsExistingEntrySchema = v.object({
  path: v.string(),
  kind: v.picklist(['file', 'folder']),
  size: v.number(),
  etag: v.nullable(v.string()),
  sha256: v.optional(v.string()),
});
export type FsExistingEntry = v.InferOutput<typeof fsExistingEntrySchema>;
/** Only the paths where something is; a path outside what the caller may see is answered as absent. */
export const fsExistsSchema = v.object({ existing: v.array(fsExistingEntrySchema) });
export type FsExists = v.InferOutput<typeof fsExistsSchema>;

/** One path of a batch: done, or why not. */
export const fsBatchResultSchema = v.object({
  succeeded: v.array(v.string()),
  failed: v.array(v.object({ path: v.string(), error: v.string(), message: v.string() })),
});
export type FsBatchResult = v.InferOutput<typeof fsBatchResultSchema>;

// ----------------------------------------------------------------------------------------------------- uploads

/** The fields of `upload`'s form besides its file. */
/** Uploads replace an existing file unless told otherwise: scripts written before `onConflict` keep working. */
export const fsUploadFormSchema = v.object({
  path: v.optional(fsPathSchema, '/'),
  mimetype: v.optional(v.string()),
  onConflict: v.optional(fsConflictPolicySchema, 'replace'),
});

/** `path` is the file's final path (another name when `renamed`); a `skipped` one describes the file left there. */
export const fsUploadResultSchema = v.object({
  path: v.string(),
  size: v.number(),
  etag: v.string(),
  mimetype: v.string(),
  /** Absent only in answers stored before it existed (the browser's offline cache, a resumed task's journal). */
  outcome: v.optional(fsWriteOutcomeSchema),
});
export type FsUploadResult = v.InferOutput<typeof fsUploadResultSchema>;

/** The most files one `upload-batch` request stores; file parts past it are answered in `failed` (`too_many_files`). */
export const FS_UPLOAD_GROUP_MAX_FILES = 100;

/**
 * `upload-batch`'s form: `path` (the folder), then optionally `onConflict` (for every file after it, until the next
 * `onConflict`; default `replace`), then per file `relativePath`, optionally `mimetype`, and the file part.
 *
 * `upload-batch`: every file part of the form is answered once, in `succeeded` (as `upload` answers it) or in
 * `failed` (its full path, or the folder and its `relativePath` when that is not a valid path), each list in form
 * order; `relativePath` is the form's field exactly as sent, for the client to match its files by.
 */
export const fsUploadBatchResultSchema = v.object({
  succeeded: v.array(v.object({ ...fsUploadResultSchema.entries, relativePath: v.string() })),
  failed: v.array(v.object({ path: v.string(), relativePath: v.string(), error: v.string(), message: v.string() })),
});
export type FsUploadBatchResult = v.InferOutput<typeof fsUploadBatchResultSchema>;

const sizeField = numberish(v.pipe(v.number(), v.integer('must_be_integer'), v.minValue(0, 'must_not_be_negative')));
const contentTypeField = nullableContentType;

/** `path` is the folder the file goes in; `filename` its name. */
export const fsMultipartInitRequestSchema = v.object({
  path: pathField,
  filename: v.pipe(v.string(), v.minLength(1, 'required')),
  contentType: contentTypeField,
  fileSize: sizeField,
  onConflict: v.optional(fsConflictPolicySchema, 'replace'),
});
/**
 * An upload started (`outcome` says what its completion will be: `created`, `replaced` or `renamed`, with the final
 * `path`), or not needed: `skipped`, with the path of the file left there. A `renamed` name stays reserved for this
 * upload until it completes or is aborted.
 */
export const fsMultipartInitSchema = v.variant('outcome', [
  v.object({
    outcome: v.picklist(['created', 'replaced', 'renamed']),
    uploadId: v.string(),
    /** The file's full path: what part, complete and abort name. */
    path: v.string(),
    /** Opaque; given back to part, complete and abort. */
    key: v.string(),
    partSize: v.number(),
    partCount: v.number(),
  }),
  v.object({ outcome: v.literal('skipped'), path: v.string() }),
]);
export type FsMultipartInit = v.InferOutput<typeof fsMultipartInitSchema>;

export const fsPartQuerySchema = v.object({
  path: pathField,
  uploadId: v.pipe(v.string(), v.minLength(1, 'required')),
  partNumber: v.pipe(v.string(), v.regex(/^\d{1,5}$/, 'must_be_integer'), v.transform(Number), v.minValue(1, 'must_be_positive'), v.maxValue(MAX_PART_COUNT, 'too_large')),
  key: v.pipe(v.string(), v.minLength(1, 'required')),
  isLastPart: v.optional(v.string()),
});
export const fsPartSchema = v.object({ partNumber: v.number(), etag: v.string(), size: v.number() });

export const fsSignRequestSchema = v.object({
  path: pathField,
  uploadId: v.pipe(v.string(), v.minLength(1, 'required')),
  key: v.pipe(v.string(), v.minLength(1, 'required')),
  partNumbers: v.pipe(v.array(partNumberSchema), v.minLength(1, 'required'), v.maxLength(100, 'too_many')),
});

export const fsMultipartCompleteRequestSchema = v.object({
  path: pathField,
  uploadId: v.pipe(v.string(), v.minLength(1, 'required')),
  key: v.pipe(v.string(), v.minLength(1, 'required')),
  parts: v.pipe(
    v.array(v.object({ partNumber: numberish(v.pipe(v.number(), v.integer())), etag: v.pipe(v.string(), v.minLength(1, 'required')) })),
    v.minLength(1, 'required'),
  ),
  contentType: contentTypeField,
  fileSize: v.optional(sizeField),
});
export const fsMultipartAbortRequestSchema = v.object({
  path: pathField,
  uploadId: v.pipe(v.string(), v.minLength(1, 'required')),
  key: v.pipe(v.string(), v.minLength(1, 'required')),
});

/** `path` is the folder; the answer's `targetPath` is the file's full path. */
export const fsPresignRequestSchema = v.object({
  path: pathField,
  fileName: v.pipe(v.string(), v.minLength(1, 'required')),
  contentType: contentTypeField,
  fileSize: sizeField,
  onConflict: v.optional(fsConflictPolicySchema, 'replace'),
});
/** A skipped presign: nothing to PUT, the file at `targetPath` was left alone. */
export const fsPresignSkippedSchema = v.object({ outcome: v.literal('skipped'), targetPath: v.string(), mountId: v.string() });
export const fsPresignSchema = v.object({
  /** What the commit will be; absent only in answers of servers before it existed. */
  outcome: v.optional(v.picklist(['created', 'replaced', 'renamed'])),
  uploadUrl: v.string(),
  targetPath: v.string(),
  mountId: v.string(),
  /** Opaque; given back to presign/commit. */
  key: v.string(),
  contentType: v.string(),
  expiresIn: v.number(),
  /**
   * CloudPaste's names, for its client, which PUTs to `presignedUrl` and sends the whole answer back to
   * presign/commit. `presignedUrl` is `uploadUrl`. A mount upload has no record before its commit, so `fileId` is the
   * upload's `key`; `s3Path` is the object's key in its storage (S3 bucket, or under the LOCAL storage's folder:
   * the same `key`); `s3ConfigId` is the mount's storage config (LOCAL ones too: they are storage configs here).
   */
  presignedUrl: v.string(),
  fileId: v.string(),
  s3Path: v.string(),
  s3ConfigId: v.string(),
});
export type FsPresign = v.InferOutput<typeof fsPresignSchema>;
export const fsPresignCommitRequestSchema = v.object({
  targetPath: pathField,
  key: v.pipe(v.string(), v.minLength(1, 'required')),
  mountId: v.optional(v.string()),
  etag: v.optional(v.string()),
  contentType: contentTypeField,
  fileSize: sizeField,
});

// ------------------------------------------------------------------------------------------------------ copies

export const fsBatchCopyRequestSchema = v.object({
  items: v.pipe(
    v.array(v.object({ sourcePath: sentPathField, targetPath: sentPathField })),
    v.minLength(1, 'required'),
    v.maxLength(1000, 'too_many'),
  ),
  /** The older switch: `true` (the default) is `onConflict: skip`, `false` is `replace`. `onConflict` wins. */
  skipExisting: v.optional(booleanish, true),
  onConflict: v.optional(fsConflictPolicySchema),
});

/**
 * `batch-move`: items like batch-copy's. Inside one storage config each is renamed by the storage; between
 * configs the server answers client copies as batch-copy does, and the client confirms them with
 * `batch-move-commit`, which checks each target (size, and ETag where the storage gives one) before it deletes
 * that file's source: a source whose target is not verified is never deleted. Default `onConflict`: `fail`.
 */
export const fsBatchMoveRequestSchema = v.object({
  items: fsBatchCopyRequestSchema.entries.items,
  onConflict: v.optional(fsConflictPolicySchema, 'fail'),
});

/** A file the client copies itself (between storages): GET `downloadUrl`, then PUT or multipart to the target. */
export const fsClientCopySchema = v.object({
  sourcePath: v.string(),
  targetPath: v.string(),
  targetMountId: v.string(),
  fileSize: v.number(),
  contentType: v.string(),
  downloadUrl: v.string(),
  /** Opaque key of the target, given back to batch-copy-commit as `s3Path`. */
  s3Path: v.string(),
  upload: v.variant('kind', [
    v.object({ kind: v.literal('put'), url: v.string() }),
    v.object({ kind: v.literal('multipart'), uploadId: v.string(), partSize: v.number(), partCount: v.number() }),
  ]),
});
export type FsClientCopy = v.InferOutput<typeof fsClientCopySchema>;

/** A read group holds at most this many small client copies of one source storage… */
export const FS_READ_GROUP_FILES = 8;
/** …and at most this many of their bytes. */
export const FS_READ_GROUP_BYTES = 8 * 1024 * 1024;

/**
 * Small client copies whose source storage is served by this server (LOCAL), read with one GET: `url` answers
 * the files' whole bytes one after another, in the order of `sourcePaths` (each a client copy's `sourcePath`),
 * `size` bytes in all. Each copy's own `downloadUrl` still reads it alone, should the group read fail.
 */
export const fsReadGroupSchema = v.object({ url: v.string(), size: v.number(), sourcePaths: v.array(v.string()) });
export type FsReadGroup = v.InferOutput<typeof fsReadGroupSchema>;

/** One file of a copy or move and what became of it at its final `targetPath` (client copies: once committed). */
export const fsItemOutcomeSchema = v.object({ sourcePath: v.string(), targetPath: v.string(), outcome: fsWriteOutcomeSchema });
export type FsItemOutcome = v.InferOutput<typeof fsItemOutcomeSchema>;

/**
 * `failed[].error` is the reason (`fs_exists` for a name taken under `fail`: the one failure a run with another
 * `onConflict` can mend). A client copy's planned outcome is its `outcome`; `renamed` targets stay reserved until
 * committed.
 */
export const fsBatchCopySchema = v.object({
  copied: v.array(v.string()),
  skipped: v.array(v.string()),
  failed: v.array(v.object({ path: v.string(), error: v.string(), message: v.string() })),
  /** Every file done by the server itself (copied, or skipped), with its outcome. */
  outcomes: v.optional(v.array(fsItemOutcomeSchema), []),
  requiresClientSideCopy: v.boolean(),
  clientCopies: v.array(v.object({ ...fsClientCopySchema.entries, outcome: v.optional(fsWriteOutcomeSchema) })),
  readGroups: v.optional(v.array(fsReadGroupSchema), []),
});
export type FsBatchCopy = v.InferOutput<typeof fsBatchCopySchema>;

/** `batch-move`'s answer: `moved` are final paths moved by the server; the rest as batch-copy's. */
export const fsBatchMoveSchema = v.object({
  moved: v.array(v.string()),
  skipped: v.array(v.string()),
  failed: fsBatchCopySchema.entries.failed,
  outcomes: v.array(fsItemOutcomeSchema),
  requiresClientSideCopy: v.boolean(),
  clientCopies: fsBatchCopySchema.entries.clientCopies,
  readGroups: v.optional(v.array(fsReadGroupSchema), []),
});
export type FsBatchMove = v.InferOutput<typeof fsBatchMoveSchema>;

export const fsBatchCopyCommitRequestSchema = v.object({
  targetMountId: v.pipe(v.string(), v.minLength(1, 'required')),
  files: v.pipe(
    v.array(
      v.object({
        targetPath: sentPathField,
        s3Path: v.pipe(v.string(), v.minLength(1, 'required')),
        contentType: contentTypeField,
        fileSize: sizeField,
        etag: v.optional(v.string()),
      }),
    ),
    v.minLength(1, 'required'),
  ),
});

/**
 * `batch-move-commit`: the client copies of a move, written; each target is verified (present, `fileSize`, and
 * `etag` when both sides have one) and only then its `sourcePath` deleted. `pruneFolders` (the moved folders, sent
 * with the last commit) are removed when no file is left below them: a folder with a file that failed stays.
 */
export const fsBatchMoveCommitRequestSchema = v.object({
  targetMountId: v.pipe(v.string(), v.minLength(1, 'required')),
  files: v.pipe(
    v.array(v.object({ ...fsBatchCopyCommitRequestSchema.entries.files.pipe[0].item.entries, sourcePath: sentPathField })),
    v.minLength(0),
  ),
  pruneFolders: v.optional(v.pipe(v.array(sentPathField), v.maxLength(1000, 'too_many')), []),
});

export const cacheClearRequestSchema = v.object({ mountId: v.optional(v.string()) });
export const cacheClearSchema = v.object({ cleared: v.number() });
