import * as v from 'valibot';
import {
  FILE_REQUEST_GRANT_SCHEME,
  FILE_REQUEST_GRANT_SECONDS,
  fileRequestGrantSchema,
  fileRequestInitResponseSchema,
  fileRequestListSchema,
  fileRequestSchema,
  fileRequestUploadListSchema,
  fileRequestUploadSchema,
  publicFileRequestSchema,
} from '../../../contract/file-requests';
import { multipartPartsResponseSchema, multipartSignResponseSchema } from '../../../contract/multipart';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'File requests';

const yours = 'a request you may manage (the admin: any; a key: its own, others answer 404)';
const grant =
  `Needs the sender's grant (\`POST /api/public/file-requests/{slug}/grant\`) as \`Authorization: ${FILE_REQUEST_GRANT_SCHEME} <grant>\`: ` +
  'missing, forged or expired: 401; given for another request: 403. No account\'s credentials are used.';
const closed = 'A closed or expired request answers 410, a full one 409.';

export const fileRequestDocs: RouteDocs = {
  'POST /api/file-requests': {
    tag,
    summary: 'Create a file request',
    description:
      '`target`: `{"kind":"folder","path":"/local/inbox/"}` (a folder of a mount you may write; a key needs the mount ' +
      'permission; made when missing) or `{"kind":"shares"}` (each file becomes a file share of yours). Limits left ' +
      'out or `null` are none. `allowed_types`: extensions (`.pdf`), MIME types (`application/pdf`) or families ' +
      '(`image/*`). The answer\'s `slug` makes the link `/request/{slug}`; `slug` may be given (the share rules, in the ' +
      'requests\' own slug space: 409 when taken).',
    data: fileRequestSchema,
    ok: [201],
    errors: [409],
  },
  'GET /api/file-requests': {
    tag,
    summary: 'List file requests',
    description: 'The admin sees every request, a key its own; newest first, with the files and bytes each received.',
    data: fileRequestListSchema,
  },
  'GET /api/file-requests/:id': { tag, summary: `Read ${yours}`, data: fileRequestSchema, errors: [404] },
  'PATCH /api/file-requests/:id': {
    tag,
    summary: `Change ${yours}`,
    description: 'Any setting but the target; `password: null` removes the password; `closed: true` closes it, `false` opens it again.',
    data: fileRequestSchema,
    errors: [404],
  },
  'DELETE /api/file-requests/:id': {
    tag,
    summary: `Delete ${yours}`,
    description: 'Uploads still running are given up; the files received stay where they landed.',
    data: v.null(),
    errors: [404],
  },
  'GET /api/file-requests/:id/uploads': {
    tag,
    summary: 'The files a request received',
    description: 'Newest first: the name each sender typed (or `null`), when, and where the file landed (`path`, or `share_slug`).',
    data: fileRequestUploadListSchema,
    errors: [404],
  },
  'GET /api/public/file-requests/:slug': {
    tag,
    summary: 'A request as its senders see it',
    description: 'Title, message, limits, `state` (`open`, `closed`, `expired`, `full`) and what it received; spends nothing.',
    data: publicFileRequestSchema,
    errors: [404],
  },
  'POST /api/public/file-requests/:slug/grant': {
    tag,
    summary: 'Get a grant to send files',
    description:
      `With the password when the request has one (missing or wrong: 401), and the sender's name (optional). The grant ` +
      `is valid for ${FILE_REQUEST_GRANT_SECONDS / 3600} hours. ${closed} Limited per client and request (429).`,
    data: fileRequestGrantSchema,
    ok: [201],
    errors: [404, 409, 410, 429],
  },
  'GET /api/public/file-requests/:slug/uploads': {
    tag,
    summary: 'What this sender sent',
    description: `Everyone's files when the request shows uploads. ${grant}`,
    data: fileRequestUploadListSchema,
    errors: [404],
  },
  'POST /api/public/file-requests/:slug/multipart/init': {
    tag,
    summary: 'Start sending a file',
    description:
      'As `POST /api/s3/multipart/init`: the part plan of contract/parts (one part for a small file). Checked before ' +
      'any byte: the type by name (400), the size per file and the total (413), the count with uploads still running ' +
      `(409). A folder request names the file as it will land (\`name (1).ext\` when taken). ${closed} ${grant}`,
    data: fileRequestInitResponseSchema,
    ok: [201],
    errors: [404, 409, 410, 413, 429],
  },
  'POST /api/public/file-requests/:slug/multipart/sign': {
    tag,
    summary: 'Signed PUT URLs for parts',
    description: `As \`POST /api/s3/multipart/sign\`, for the sender's own upload. ${grant}`,
    data: multipartSignResponseSchema,
    errors: [404, 410],
  },
  'GET /api/public/file-requests/:slug/multipart/parts': {
    tag,
    summary: 'The parts storage holds (for a resume)',
    description: grant,
    data: multipartPartsResponseSchema,
    errors: [404],
  },
  'POST /api/public/file-requests/:slug/multipart/complete': {
    tag,
    summary: 'Finish sending a file',
    description:
      'Every limit is checked again, the parts joined (their sizes must add up to the declared size), and where the ' +
      `request limits types the bytes' signature must match the name (400). ${closed} ${grant}`,
    data: fileRequestUploadSchema,
    ok: [201],
    errors: [404, 409, 410, 413],
  },
  'POST /api/public/file-requests/:slug/multipart/abort': {
    tag,
    summary: 'Give up sending a file',
    description: `Its parts are dropped and its place given back. ${grant}`,
    data: v.null(),
    errors: [404, 409],
  },
};
