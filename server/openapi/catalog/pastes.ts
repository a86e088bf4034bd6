import * as v from 'valibot';
import { batchDeleteResultSchema } from '../../../contract/lists';
import {
  adminPasteListSchema,
  clearExpiredResultSchema,
  createdPasteSchema,
  pasteDetailSchema,
  publicPasteSchema,
  userPasteListSchema,
} from '../../../contract/pastes';
import { slugAvailabilitySchema } from '../../../contract/slugs';
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
      description: 'Each field is optional. `password: null` removes the password, `expiresAt: null` means never.',
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
      'unless you give one; `maxViews: 0` means unlimited.',
    data: createdPasteSchema,
    ok: [201],
    errors: [409, 413],
  },
  'GET /api/paste/:slug': {
    tag,
    summary: 'Open a paste',
    description:
      'Counts one view and answers the content. A password-protected paste answers its details only, with ' +
      '`requiresPassword: true`, and counts no view: unlock it with `POST`.',
    data: publicPasteSchema,
    errors: [404, 410],
  },
  'POST /api/paste/:slug': {
    tag,
    summary: 'Unlock a password-protected paste',
    description: 'Counts one view. A wrong password is a 401.',
    data: publicPasteSchema,
    errors: [401, 404, 410],
  },
  'GET /api/raw/:slug': {
    tag,
    summary: 'The paste as plain text',
    description: 'Counts one view. Failures are plain text too (their message), with the same statuses.',
    query: rawQuerySchema,
    raw: [{ status: 200, contentType: 'text/plain', description: 'The content, `Content-Disposition: inline`.' }],
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
