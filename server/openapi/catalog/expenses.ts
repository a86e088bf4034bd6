import * as v from 'valibot';
import {
  EXPENSE_RECEIPTS_MAX,
  expenseCategoriesSchema,
  expenseClaimDetailSchema,
  expenseListSchema,
  expenseReceiptSchema,
} from '../../../contract/expenses';
import { objectStream } from './streams';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'Expenses';

const whose = 'a claim you may see (the admin: any claim; a key: its own, others answer 404)';
const lifecycle =
  'Lifecycle: `draft → submitted → processing → approved | rejected`; a rejected claim can be edited and submitted ' +
  'again. A step the lifecycle has no place for answers 409 with the claim\'s current status in `data.status`.';

export const expenseDocs: RouteDocs = {
  'GET /api/expenses/categories': { tag, summary: 'The categories a claim may have', data: expenseCategoriesSchema },
  'POST /api/expenses': {
    tag,
    summary: 'File a claim (as a draft)',
    description:
      '`amount_minor` in the currency\'s minor units (cents; yen have none), at most 10^12. `currency`: ISO 4217. ' +
      '`spent_on`: `YYYY-MM-DD`, not in the future. `category`: one of `GET /api/expenses/categories`.',
    data: expenseClaimDetailSchema,
    ok: [201],
  },
  'GET /api/expenses': {
    tag,
    summary: 'List claims',
    description: 'The admin sees every claim, a key its own; newest first. `totals`: the sum per currency over the whole filter.',
    data: expenseListSchema,
  },
  'GET /api/expenses/:id': { tag, summary: `Read ${whose}, with its receipts and timeline`, data: expenseClaimDetailSchema, errors: [404] },
  'PATCH /api/expenses/:id': {
    tag,
    summary: 'Change your claim',
    description: `Only drafts and rejected claims, by their owner. ${lifecycle}`,
    data: expenseClaimDetailSchema,
    errors: [404, 409],
  },
  'DELETE /api/expenses/:id': {
    tag,
    summary: 'Delete your draft claim and its receipts',
    description: 'Only drafts, by their owner.',
    data: v.null(),
    errors: [404, 409],
  },
  'POST /api/expenses/:id/submit': {
    tag,
    summary: 'Submit your claim for review',
    description: `From a draft or a rejected claim, by its owner. ${lifecycle}`,
    data: expenseClaimDetailSchema,
    errors: [404, 409],
  },
  'POST /api/expenses/:id/receipts': {
    tag,
    summary: 'Add a receipt to your claim',
    description:
      'A multipart form with one file: PNG, JPEG, GIF, WebP or PDF, by its name and by its first bytes, within the max ' +
      `upload size. Only while the claim can be edited; at most ${EXPENSE_RECEIPTS_MAX} per claim.`,
    form: { fields: v.object({}), file: 'file' },
    data: expenseReceiptSchema,
    ok: [201],
    errors: [404, 409, 413],
  },
  'GET /api/expenses/:id/receipts/:receiptId': {
    tag,
    summary: 'A receipt, inline',
    description: 'For the claim\'s owner and the admin. Images are sandboxed by a CSP, like file previews.',
    raw: objectStream,
    errors: [404, 416],
  },
  'DELETE /api/expenses/:id/receipts/:receiptId': {
    tag,
    summary: 'Remove a receipt from your claim',
    description: 'Only while the claim can be edited.',
    data: v.null(),
    errors: [404, 409],
  },
  'GET /api/admin/expenses/export.csv': {
    tag,
    summary: 'Claims as CSV',
    description:
      'RFC 4180, one line per claim; `from` and `to` bound the date spent (inclusive). Amounts in major units (`12.50`) ' +
      'beside their currency.',
    raw: [{ status: 200, contentType: 'text/csv', description: 'The claims, a header line first.', headers: ['Content-Disposition'] }],
  },
  'POST /api/admin/expenses/:id/process': {
    tag,
    summary: 'Take a submitted claim into processing',
    description: `An optional \`note\` goes into the timeline. ${lifecycle}`,
    data: expenseClaimDetailSchema,
    errors: [404, 409],
  },
  'POST /api/admin/expenses/:id/approve': {
    tag,
    summary: 'Approve a claim in processing',
    description: `An optional \`note\` goes into the timeline. ${lifecycle}`,
    data: expenseClaimDetailSchema,
    errors: [404, 409],
  },
  'POST /api/admin/expenses/:id/reject': {
    tag,
    summary: 'Reject a claim in processing',
    description: `The \`note\` says why (required). ${lifecycle}`,
    data: expenseClaimDetailSchema,
    errors: [404, 409],
  },
};
