import * as v from 'valibot';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { adminPasteListSchema, clearExpiredResultSchema, createdPasteSchema, pasteDetailSchema, userPasteListSchema } from '../../../contract/pastes';
import { publicPasteSchema } from '../../../contract/public-paste';
import { slugAvailabilitySchema } from '../../../contract/slugs';
import { PAYLOAD_FORMAT } from '../../../contract/paste-encryption';
import { PEEK_HEADERS, peekDoc } from './peek';
import { docsOf, type RouteDocs, type Tag } from './types';

const tag: Tag = 'Pastes';

/** Read by the raw link's handler itself: its failures are plain text too, so no envelope-answering validator. */
const rawQuerySchema = v.object({
  password: v.optional(v.pipe(v.string(), v.description('The share password, when the paste has one.'))),
});

/** Management of pastes: every paste for admins (`/api/admin/pastes`), the caller's own under `/api/user/pastes`. */
function managed(scope: 'admin' | 'user'): RouteDocs {
  const base = `/api/${scope}/pastes` as const;
  const whose = scope === 'admin' ? 'any paste' : 'a paste you created';
  return docsOf([
    [`GET ${base}`, {
      tag,
      summary: scope === 'admin' ? 'List all pastes (page pagination)' : 'List your pastes (offset pagination)',
      data: scope === 'admin' ? adminPasteListSchema : userPasteListSchema,
    }],
    [`GET ${base}/:id`, { tag, summary: `Read ${whose} with its content`, data: pasteDetailSchema, errors: [404] }],
    [`PUT ${base}/:id`, {
      tag,
      summary: `Change ${whose}`,
      description:
        'Each field is optional. `password: null` removes the password, `expiresAt: null` means never. `encryption` ' +
        'comes with the `content` it describes (`null`: plain text); `content` alone keeps the paste\'s encryption ' +
        'and must then be a payload too.',
      data: pasteDetailSchema,
      errors: [404, 409],
    }],
    [`DELETE ${base}/:id`, { tag, summary: `Delete ${whose}`, data: v.null(), errors: [404] }],
    [`POST ${base}/batch-delete`, {
      tag,
      summary: 'Delete several pastes',
      description: '202 when some ids were not found (`missing` > 0).',
      data: batchDeleteResultSchema,
      ok: [200, 202],
    }],
  ]);
}

export const pasteDocs: RouteDocs = {
  'POST /api/paste': {
    tag,
    summary: 'Create a paste',
    description:
      'The share page is `/paste/{slug}` and the raw text `/api/raw/{slug}`. A random 6-character slug is chosen ' +
      'unless you give one; `maxViews: 0` means unlimited.\n\n' +
      'End-to-end encrypted: `encryption: "aes-256-gcm"` with `content` the ' + PAYLOAD_FORMAT + ' The server ' +
      'stores it as given and never renders or previews it; the size limit counts the payload. The 32-byte key ' +
      'stays with you: the link to share is `/paste/{slug}#key=<base64url of the key>`, whose fragment browsers ' +
      'never send. A payload that is not base64url (without padding) or is shorter than 28 bytes is a 400 at ' +
      '`content`.',
    data: createdPasteSchema,
    ok: [201],
    errors: [409, 413],
  },
  'GET /api/paste/:slug': {
    tag,
    summary: 'Open a paste',
    description:
      'Counts one view and answers the content. A password-protected paste answers its details only, with ' +
      '`requiresPassword: true`, and counts no view: unlock it with `POST`. An encrypted paste (`encryption` set) ' +
      'answers its payload as `content` and no `contentHtml`. `HEAD` peeks without spending a view.',
    data: publicPasteSchema,
    headers: PEEK_HEADERS,
    head: peekDoc('a paste'),
    errors: [404, 410],
  },
  'POST /api/paste/:slug': {
    tag,
    summary: 'Unlock a password-protected paste',
    description: 'Counts one view. A wrong password is a 401.',
    data: publicPasteSchema,
    headers: PEEK_HEADERS,
    errors: [401, 404, 410],
  },
  'GET /api/raw/:slug': {
    tag,
    summary: 'The paste as plain text',
    description:
      'Counts one view. Failures are plain text too (their message), with the same statuses. An encrypted paste ' +
      'answers its payload as stored (base64url text), as `application/octet-stream`. `HEAD` peeks without ' +
      'spending a view (the password is still needed where the GET needs it).',
    query: rawQuerySchema,
    raw: [
      { status: 200, contentType: 'text/plain', description: 'The content, `Content-Disposition: inline`.', headers: ['Content-Length'] },
    ],
    headers: PEEK_HEADERS,
    head: peekDoc('the raw paste'),
    errors: [401, 404, 410],
    plainErrors: true,
  },
  'GET /api/slugs/paste/:slug': {
    tag,
    summary: 'Is a paste slug free?',
    data: slugAvailabilitySchema,
  },
  ...managed('admin'),
  'POST /api/admin/pastes/clear-expired': {
    tag,
    summary: 'Delete expired and used-up pastes',
    data: clearExpiredResultSchema,
  },
  ...managed('user'),
};
