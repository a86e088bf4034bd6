import * as v from 'valibot';
import {
  cacheClearSchema,
  fsBatchCopySchema,
  fsBatchMoveSchema,
  fsBatchResultSchema,
  fsConflictPolicySchema,
  fsExistsSchema,
  fsEntrySchema,
  fsLinkSchema,
  fsListingSchema,
  fsMultipartInitSchema,
  fsPartSchema,
  fsPresignSchema,
  fsUploadBatchResultSchema,
  fsUploadResultSchema,
  FS_HASH_MAX_BYTES,
  FS_UPLOAD_GROUP_MAX_FILES,
} from '../../../contract/fs';
import { fsThumbnailLinksSchema } from '../../../contract/thumbnails';
import { objectStream, THUMBNAIL_TEXT, thumbnailAnswer } from './streams';
import { docsOf, type RouteDocs, type Tag } from './types';

const tag: Tag = 'Mount file system';

const pathQuerySchema = v.object({ path: v.pipe(v.string(), v.description('The file\'s absolute path, e.g. `/local/notes.md`.')) });

const thumbnailQuerySchema = v.object({
  ...pathQuerySchema.entries,
  size: v.optional(v.pipe(v.picklist(['grid', 'large']), v.description('`grid` (256 px, the default) or `large` (1280 px).'))),
  v: v.optional(v.pipe(v.string(), v.description('Any text that changes with the file (its ETag): makes the answer cacheable for good.'))),
});

/** What every write into a mount says about its conflict rule. */
const CONFLICTS =
  '`onConflict` decides what happens when the name is taken (by a file, or by a name another upload holds): `skip` ' +
  'leaves the file there, `replace` writes over it, `rename` writes `name (1).ext` (the next free name, chosen ' +
  'atomically), `fail` answers 409. A folder in the way is never replaced. The answer says per file what happened ' +
  '(`outcome`: `created`, `replaced`, `skipped` or `renamed`) with the final path.';

const onConflictField = (dflt: string) =>
  v.optional(v.pipe(fsConflictPolicySchema, v.description(`What to do when the name is taken (default \`${dflt}\`).`)));

const uploadFormSchema = v.object({
  path: v.optional(v.pipe(v.string(), v.description('The folder the file goes in.')), '/'),
  mimetype: v.optional(v.pipe(v.string(), v.description('Overrides the type guessed from the name.'))),
  onConflict: onConflictField('replace'),
});

const uploadBatchFormSchema = v.object({
  path: v.pipe(v.string(), v.description('The folder the files go in: the first field of the form.')),
  relativePath: v.pipe(
    v.string(),
    v.description('Right before each file: its path below `path`, `/`-separated (`photos/2024/a.jpg`); missing folders are made.'),
  ),
  mimetype: v.optional(v.pipe(v.string(), v.description('Before a file: overrides the type guessed from its name.'))),
  onConflict: v.optional(
    v.pipe(fsConflictPolicySchema, v.description('After `path`, any number of times: the rule for the files after it (default `replace`).')),
  ),
});

/** The same routes for admins (`/api/admin/fs`) and for admins or keys with the mount permission (`/api/user/fs`). */
function fileSystem(base: '/api/admin/fs' | '/api/user/fs'): RouteDocs {
  return docsOf([
    [`GET ${base}/list`, {
      tag,
      summary: 'List a folder',
      description: 'Folders first, then files; `/` and the folders above mount points are virtual. `refresh=true` skips the cache.',
      data: fsListingSchema,
      errors: [404],
    }],
    [`GET ${base}/get`, {
      tag,
      summary: 'Details of a file or folder',
      description: '`contentType` repeats `mimetype`, under the name CloudPaste\'s client reads.',
      data: fsEntrySchema,
      errors: [404],
    }],
    [`GET ${base}/download`, { tag, summary: 'Download a file', query: pathQuerySchema, raw: objectStream, errors: [404, 416] }],
    [`GET ${base}/preview`, { tag, summary: 'A file, inline', query: pathQuerySchema, raw: objectStream, errors: [404, 416] }],
    [`GET ${base}/thumbnail`, {
      tag,
      summary: 'A file\'s thumbnail',
      description: `The access of \`download\`; counts no download. ${THUMBNAIL_TEXT} With \`v\` (the entry's ETag or time) the browser may keep it for good.`,
      query: thumbnailQuerySchema,
      raw: thumbnailAnswer,
      errors: [404, 413, 415, 422],
    }],
    [`POST ${base}/thumbnail-links`, {
      tag,
      summary: 'Signed thumbnail URLs, for <img>',
      description:
        'For each path the caller may read and of a type with thumbnails, the `grid` and `large` URLs of `GET /api/fs-thumbnail`, ' +
        'which need no credentials; the same all day (so the browser caches them), valid until the end of the next day (UTC). ' +
        'Other paths are left out. Append `&v=` with the entry\'s ETag to let the browser keep the picture for good.',
      data: fsThumbnailLinksSchema,
    }],
    [`POST ${base}/mkdir`, { tag, summary: 'Create a folder', data: v.null(), ok: [201], errors: [404, 409] }],
    [`POST ${base}/upload`, {
      tag,
      summary: 'Upload a file into a folder',
      description: `Streamed to storage; for files over 5 MiB the multipart routes resume after a failure. ${CONFLICTS} Send \`onConflict\` before the file part (after it, the file is staged on the server's disk first).`,
      form: { fields: uploadFormSchema, file: 'file' },
      data: fsUploadResultSchema,
      ok: [201],
      errors: [404, 409, 413],
    }],
    [`POST ${base}/upload-batch`, {
      tag,
      summary: 'Upload a group of files into a folder',
      description:
        'One form, in this order: `path`, then for each file its `relativePath` (and optionally `mimetype`) right before ' +
        `its \`file\` part. Each file streams to storage and is stored whole or not at all; one that fails (invalid path, ` +
        'too large, a folder in the way, outside your base path, a storage error) is listed in `failed` with its reason ' +
        `and the others are still stored. At most ${FS_UPLOAD_GROUP_MAX_FILES} files: later file parts are not stored and ` +
        'are answered in `failed` as `too_many_files`. 202 when some failed. A form that is not one (a file before `path` ' +
        'or without its `relativePath`, a body that breaks off) is a 400; the files stored before that point stay. ' +
        `${CONFLICTS} A conflict under \`fail\` is in \`failed\` with the error \`fs_exists\`.`,
      form: { fields: uploadBatchFormSchema, file: 'file' },
      data: fsUploadBatchResultSchema,
      ok: [200, 202],
    }],
    [`DELETE ${base}/remove`, { tag, summary: 'Delete a file or a folder with its content', data: v.null(), errors: [404] }],
    [`POST ${base}/batch-remove`, {
      tag,
      summary: 'Delete several paths',
      description: '202 when some failed: each with its reason.',
      data: fsBatchResultSchema,
      ok: [200, 202],
    }],
    [`POST ${base}/rename`, { tag, summary: 'Rename or move within a mount', data: v.null(), errors: [404, 409] }],
    [`POST ${base}/update`, { tag, summary: 'Save a text file (created when missing)', data: fsUploadResultSchema, errors: [404, 409, 413] }],
    [`GET ${base}/file-link`, {
      tag,
      summary: 'A direct link to a file',
      description: 'A presigned (or signed local) GET URL; `expires_in` in seconds, 7 days by default: at most 28 days on LOCAL storage, 7 on S3 (400 past that).',
      data: fsLinkSchema,
      errors: [404],
    }],
    [`POST ${base}/multipart/init`, {
      tag,
      summary: 'Start a multipart upload into a folder',
      description:
        'Parts of 5 MiB (the last smaller): send each to `multipart/part`, or sign URLs with `multipart/sign`. ' +
        `${CONFLICTS} A \`skipped\` answer starts nothing; a \`renamed\` (or new) name stays reserved until the upload completes or is aborted.`,
      data: fsMultipartInitSchema,
      ok: [201],
      errors: [404, 409, 413],
    }],
    [`POST ${base}/multipart/part`, {
      tag,
      summary: 'Send one part through the server',
      binaryBody: 'The part\'s bytes.',
      data: fsPartSchema,
      errors: [404, 413],
    }],
    [`POST ${base}/multipart/sign`, {
      tag,
      summary: 'Sign part URLs to PUT parts straight to storage',
      data: v.object({ urls: v.array(v.object({ partNumber: v.number(), url: v.string() })) }),
      errors: [404],
    }],
    [`POST ${base}/multipart/complete`, {
      tag,
      summary: 'Assemble the parts',
      data: fsUploadResultSchema,
      ok: [201],
      errors: [404, 413],
    }],
    [`POST ${base}/multipart/abort`, { tag, summary: 'Abort a multipart upload', data: v.null(), errors: [404] }],
    [`POST ${base}/presign`, {
      tag,
      summary: 'Get a URL to PUT one file to',
      description:
        'PUT the bytes to `uploadUrl`, then `presign/commit`. `presignedUrl`, `fileId`, `s3Path` and `s3ConfigId` repeat ' +
        'the answer under CloudPaste\'s names (the URL, the upload\'s key, the object\'s key, the storage config). ' +
        `${CONFLICTS} A \`skipped\` answer has no URL (\`outcome\`, \`targetPath\`, \`mountId\` only).`,
      data: fsPresignSchema,
      errors: [404, 409, 413],
    }],
    [`POST ${base}/presign/commit`, { tag, summary: 'Finish a presigned upload', data: fsUploadResultSchema, ok: [201], errors: [404, 413] }],
    [`POST ${base}/batch-copy`, {
      tag,
      summary: 'Copy files and folders',
      description:
        'Within one storage the server copies. Across storages the answer has `requiresClientSideCopy: true` and, per ' +
        'file, a download URL and an upload target: copy the bytes, then call `batch-copy-commit`. Small files of a LOCAL ' +
        'source also come in `readGroups`: one URL answers several files\' bytes one after another, in `sourcePaths` order. ' +
        '202 when some failed. `onConflict` as for uploads (default `skip`; the older `skipExisting: false` means ' +
        '`replace`); `outcomes` lists the files the server did, each client copy carries its planned `outcome`.',
      data: fsBatchCopySchema,
      ok: [200, 202],
    }],
    [`POST ${base}/batch-copy-commit`, {
      tag,
      summary: 'Confirm copies the client made',
      description: 'Checks each target object exists with the right size. 202 when some failed.',
      data: fsBatchResultSchema,
      ok: [200, 202],
    }],
    [`POST ${base}/exists`, {
      tag,
      summary: 'What is at some paths',
      description:
        'For a client to ask about conflicts before it writes: each path where something is, with its kind, size and ' +
        `ETag; with \`hashes: true\`, the SHA-256 of files up to ${FS_HASH_MAX_BYTES / 1024 / 1024} MiB on storages that ` +
        'read them cheaply (LOCAL). A path outside what you may see is answered as absent.',
      data: fsExistsSchema,
    }],
    [`POST ${base}/batch-move`, {
      tag,
      summary: 'Move files and folders',
      description:
        'Items as for `batch-copy`; `onConflict` as for uploads, default `fail`. Within one storage the storage moves ' +
        'each item (files and whole folders). Across storages the answer plans client copies as `batch-copy` does: copy ' +
        'the bytes, then call `batch-move-commit`, which deletes each source once its copy is verified. 202 when some failed.',
      data: fsBatchMoveSchema,
      ok: [200, 202],
    }],
    [`POST ${base}/batch-move-commit`, {
      tag,
      summary: 'Confirm the copies of a move, deleting their sources',
      description:
        'Each target is checked (present, the declared size, the source\'s size, and the ETag where both sides have a ' +
        'comparable one) and only then its `sourcePath` deleted; a source whose copy is not verified stays. ' +
        '`pruneFolders` (the moved folders) are removed when no file is left below them. 202 when some failed.',
      data: fsBatchResultSchema,
      ok: [200, 202],
    }],
  ]);
}

export const fsDocs: RouteDocs = {
  ...fileSystem('/api/admin/fs'),
  ...fileSystem('/api/user/fs'),
  'GET /api/fs-thumbnail': {
    tag,
    summary: 'A thumbnail through a signed link',
    description: `The URLs \`thumbnail-links\` hands out; a forged, changed or expired link answers 403. ${THUMBNAIL_TEXT}`,
    query: v.object({
      path: v.string(),
      mount: v.pipe(v.string(), v.description('The mount the link was signed for.')),
      size: v.optional(v.picklist(['grid', 'large'])),
      v: v.optional(v.pipe(v.string(), v.description('Any text that changes with the file: makes the answer cacheable for good.'))),
      expires: v.pipe(v.string(), v.description('Unix seconds.')),
      sig: v.string(),
    }),
    raw: thumbnailAnswer,
    errors: [403, 404, 413, 415, 422],
  },
  'POST /api/admin/cache/clear': {
    tag,
    summary: 'Clear cached folder listings',
    description: 'Of one mount (`mountId`) or of all.',
    data: cacheClearSchema,
    errors: [404],
  },
  'POST /api/user/cache/clear': {
    tag,
    summary: 'Clear cached folder listings of the mounts you see',
    data: cacheClearSchema,
    errors: [404],
  },
};
