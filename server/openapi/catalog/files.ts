import * as v from 'valibot';
import { directUploadSchema, fileListSchema, fileShareSchema, presignResponseSchema, uploadFormSchema } from '../../../contract/files';
import { publicFileSchema } from '../../../contract/public-file';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { slugAvailabilitySchema } from '../../../contract/slugs';
import { PEEK_HEADERS, peekDoc } from './peek';
import { objectStream, THUMBNAIL_TEXT, thumbnailAnswer } from './streams';
import { docsOf, type RouteDocs, type Tag } from './types';

const tag: Tag = 'File shares';

const streamQuerySchema = v.object({
  token: v.optional(v.pipe(v.string(), v.description('The signature of a link handed out by the share info; counts no view.'))),
  password: v.optional(v.pipe(v.string(), v.description('Without a token: the share password; counts one view.'))),
});

function managed(scope: 'admin' | 'user'): RouteDocs {
  const base = `/api/${scope}/files` as const;
  const whose = scope === 'admin' ? 'any file share' : 'a file share you created';
  return docsOf([
    [`GET ${base}`, { tag, summary: scope === 'admin' ? 'List all file shares' : 'List your file shares', data: fileListSchema }],
    [`GET ${base}/:id`, { tag, summary: `Read ${whose}`, data: fileShareSchema, errors: [404] }],
    [`PUT ${base}/:id`, {
      tag,
      summary: `Change ${whose}`,
      description: 'Remark, slug, expiry, max views, password (`null` removes it).',
      data: fileShareSchema,
      errors: [404, 409],
    }],
    [`DELETE ${base}/:id`, { tag, summary: `Delete ${whose} and its stored object`, data: v.null(), errors: [404] }],
    [`POST ${base}/batch-delete`, {
      tag,
      summary: 'Delete several file shares',
      description: '202 when some were missing or their objects could not be deleted.',
      data: batchDeleteResultSchema,
      ok: [200, 202],
    }],
  ]);
}

export const fileDocs: RouteDocs = {
  'POST /api/upload': {
    tag,
    summary: 'Upload a file in one request',
    description:
      'A multipart form; the fields may come in any order. The file streams into storage within the max upload size ' +
      '(`GET /api/system/max-upload-size`) and the storage quota. `expires_in` is in hours (0 = never). The share page ' +
      'is `data.url` (`/file/{slug}`) on this server. Larger files: the multipart routes.',
    form: { fields: uploadFormSchema, file: 'file' },
    data: fileShareSchema,
    ok: [201],
    errors: [404, 409, 413],
  },
  'PUT /api/upload-direct/:filename': {
    tag,
    summary: 'Upload a file as the request body (CloudPaste\'s script upload)',
    description:
      'The body is the file, named by the path; the share options are the query fields `POST /api/upload` takes ' +
      '(`slug`, `remark`, `password`, `expires_in` in hours, `max_views`, `path`, `s3_config_id`). The type comes ' +
      'from the name unless `mimetype` is given. As in CloudPaste, `original_filename=true` stores the object under ' +
      'the file\'s own name in its folder, and `override=true` replaces the caller\'s own share holding the `slug` (or, ' +
      'with `original_filename`, that name) in one step; another\'s share is a 403. Answers the share with ' +
      'CloudPaste\'s names beside ours.',
    binaryBody: 'The file\'s bytes.',
    data: directUploadSchema,
    errors: [403, 404, 409, 413],
  },
  'POST /api/s3/presign': {
    tag,
    summary: 'Get a URL to PUT one file to',
    description: 'PUT the bytes to `upload_url` (with the answered `contentType`), then `POST /api/s3/commit`.',
    data: presignResponseSchema,
    errors: [404, 409, 413],
  },
  'POST /api/s3/commit': {
    tag,
    summary: 'Finish a presigned upload',
    description: 'Checks the stored object and makes the share. 200 when it was committed before (the same answer).',
    data: fileShareSchema,
    ok: [201, 200],
    errors: [404, 409, 410, 413],
  },
  'GET /api/slugs/file/:slug': { tag, summary: 'Is a file slug free?', data: slugAvailabilitySchema },
  ...managed('admin'),
  ...managed('user'),
  'GET /api/public/files/:slug': {
    tag: 'Visitors',
    summary: 'Open a file share',
    description:
      'An open share counts one view and includes `previewUrl` and `downloadUrl` (signed for an hour). A protected one ' +
      'answers without URLs, with `requires_password: true`: use `verify`. `HEAD` peeks without spending a view.',
    data: publicFileSchema,
    headers: PEEK_HEADERS,
    head: peekDoc('a file share'),
    errors: [404, 410],
  },
  'POST /api/public/files/:slug/verify': {
    tag: 'Visitors',
    summary: 'Unlock a password-protected file share',
    description: 'Counts one view; answers the info with its URLs.',
    data: publicFileSchema,
    headers: PEEK_HEADERS,
    errors: [401, 404, 410],
  },
  'GET /api/file-view/:slug': {
    tag: 'Visitors',
    summary: 'The file, inline',
    description: 'HTML and SVG are sandboxed by a CSP. HEAD peeks without counting a view.',
    query: streamQuerySchema,
    raw: objectStream,
    headers: PEEK_HEADERS,
    head: peekDoc('the file'),
    errors: [401, 403, 404, 410, 416],
  },
  'GET /api/file-thumbnail/:slug': {
    tag: 'Visitors',
    summary: 'The file\'s thumbnail',
    description:
      `Counts no view: a link token, the owner, or the share password. A share with a view limit shows one only with a token. ${THUMBNAIL_TEXT}`,
    query: v.object({
      ...streamQuerySchema.entries,
      size: v.optional(v.pipe(v.picklist(['grid', 'large']), v.description('`grid` (256 px, the default) or `large` (1280 px).'))),
    }),
    raw: thumbnailAnswer,
    errors: [401, 403, 404, 410, 413, 415, 422],
  },
  'GET /api/file-download/:slug': {
    tag: 'Visitors',
    summary: 'The file, as a download',
    description: '`Content-Disposition: attachment` with the file name. HEAD peeks without counting a view.',
    query: streamQuerySchema,
    raw: objectStream,
    headers: PEEK_HEADERS,
    head: peekDoc('the download'),
    errors: [401, 403, 404, 410, 416],
  },
};
