import * as v from 'valibot';
import { fileShareSchema, presignResponseSchema } from '../../../contract/files';
import {
  multipartInitResponseSchema,
  multipartPartsResponseSchema,
  multipartSignResponseSchema,
} from '../../../contract/multipart';
import { urlInfoResponseSchema } from '../../../contract/url-upload';
import { objectStream } from './streams';
import { docsOf, type RouteDocs, type Tag } from './types';

const tag: Tag = 'Large and URL uploads';

/** The same multipart flow for local files (`/api/s3/multipart`) and URL uploads (`/api/url/multipart`). */
function multipart(base: '/api/s3/multipart' | '/api/url/multipart'): RouteDocs {
  const what = base === '/api/s3/multipart' ? 'a file' : 'a URL upload';
  return docsOf([
    [`POST ${base}/init`, {
      tag,
      summary: `Start a multipart upload of ${what}`,
      description:
        'You choose `part_size` (at least 5 MiB; every part but the last has it, at most 10,000 parts). Then sign a few ' +
        'parts at a time, PUT each part to its URL and keep each answer\'s `ETag` header.',
      data: multipartInitResponseSchema,
      errors: [404, 409, 413],
    }],
    [`POST ${base}/sign`, {
      tag,
      summary: 'Sign part URLs',
      description: 'PUT each part\'s bytes to its `url`; the `ETag` answer header is what `complete` needs.',
      data: multipartSignResponseSchema,
      errors: [404, 410],
    }],
    [`GET ${base}/parts`, {
      tag,
      summary: 'Parts storage already holds (to resume)',
      data: multipartPartsResponseSchema,
      errors: [404],
    }],
    [`POST ${base}/complete`, {
      tag,
      summary: 'Assemble the parts and make the share',
      description: 'Takes the share options (slug, remark, password, expiry, max views). 200 when completed before.',
      data: fileShareSchema,
      ok: [201, 200],
      errors: [404, 409, 410, 413],
    }],
    [`POST ${base}/abort`, { tag, summary: 'Abort: drop the parts and the pending record', data: v.null(), errors: [404] }],
  ]);
}

/** The signed URLs carry more parameters (size, part, disposition…): use them exactly as handed out. */
const signedQuery = v.object({
  expires: v.pipe(v.string(), v.description('When the URL stops working (Unix seconds).')),
  sig: v.pipe(v.string(), v.description('The signature over the method, the key and every other parameter.')),
});

export const uploadDocs: RouteDocs = {
  ...multipart('/api/s3/multipart'),
  'POST /api/url/info': {
    tag,
    summary: 'What a web address serves',
    description: 'File name, size and type, and whether the browser may fetch it itself (CORS). The SSRF guard applies.',
    data: urlInfoResponseSchema,
  },
  'GET /api/url/proxy': {
    tag,
    summary: 'A web address\'s bytes through this server',
    description: 'For sources whose CORS keeps the browser out. Capped by the max upload size.',
    raw: [{ status: 200, contentType: 'application/octet-stream', description: 'The source\'s bytes and content type.' }],
    errors: [413],
  },
  'POST /api/url/presign': {
    tag,
    summary: 'Start a URL upload of one file',
    description:
      'Like `POST /api/s3/presign`, with the source `url` kept on the record: fetch the source, PUT its bytes to ' +
      '`upload_url`, then `POST /api/url/commit`.',
    data: presignResponseSchema,
    errors: [404, 409, 413],
  },
  'POST /api/url/commit': {
    tag,
    summary: 'Finish a URL upload',
    data: fileShareSchema,
    ok: [201, 200],
    errors: [404, 409, 410, 413],
  },
  'POST /api/url/cancel': { tag, summary: 'Cancel a pending URL upload', data: v.null(), errors: [404] },
  ...multipart('/api/url/multipart'),
  'PUT /api/local-storage/:configId/*': {
    tag,
    summary: 'A signed upload URL of the local storage',
    description:
      'What `upload_url` and part URLs point at when the storage is local: PUT the bytes to the URL exactly as handed ' +
      'out (the signature is the credential, and caps the size). Answers the `ETag` header.',
    query: signedQuery,
    binaryBody: 'The file\'s (or the part\'s) bytes.',
    raw: [{ status: 200, description: 'Stored.', headers: ['ETag'] }],
    errors: [403, 404, 409, 413],
  },
  'GET /api/local-storage/:configId/*': {
    tag,
    summary: 'A signed download URL of the local storage',
    query: signedQuery,
    raw: objectStream,
    errors: [403, 404, 416],
  },
  'GET /api/local-storage/:configId': {
    tag,
    summary: 'A signed read group of the local storage',
    description:
      'What a `readGroups` URL of `batch-copy` points at: several whole files\' bytes one after another, in the order ' +
      'of the `key` parameters. Each file must still have its signed size (404 otherwise).',
    query: v.object({
      ...signedQuery.entries,
      key: v.pipe(v.string(), v.description('A file\'s key; repeated, one per file, in order.')),
      size: v.pipe(v.string(), v.description('The size of the file named by the `key` at the same place; repeated.')),
    }),
    raw: [{ status: 200, contentType: 'application/octet-stream', description: 'The files\' bytes, one after another.', headers: ['Content-Length'] }],
    errors: [403, 404],
  },
  'OPTIONS /api/local-storage/*': {
    tag,
    summary: 'CORS preflight of the signed URLs',
    description: 'Browsers ask this themselves before a cross-origin PUT.',
    raw: [{ status: 204, description: 'Allowed methods and headers.', headers: ['Access-Control-Allow-Methods'] }],
  },
};
