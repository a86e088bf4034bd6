import * as v from 'valibot';
import { liveTransferListSchema, streamTicketSchema } from '../../../contract/jobs';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'Tasks';

export const transferDocs: RouteDocs = {
  'POST /api/admin/stream-ticket': {
    tag,
    summary: 'A ticket to open an event stream',
    description: 'A browser\'s `EventSource` sends no `Authorization` header: it opens `…/events?ticket=` instead. Good for one minute.',
    data: streamTicketSchema,
    ok: [201],
  },
  'GET /api/admin/transfers': {
    tag,
    summary: 'What every instance is receiving or sending',
    description: 'Running transfers, and those finished in the last 24 hours with their outcome, newest first.',
    data: liveTransferListSchema,
  },
  'GET /api/admin/transfers/events': {
    tag,
    summary: 'Live transfers as Server-Sent Events',
    description:
      'A `snapshot` event first (`{type, jobs: [], transfers}`), then a `transfer` event for each change, about once a ' +
      'second per transfer, from every instance; a comment line keeps a quiet stream open. Opened with the bearer ' +
      'token, or with `?ticket=` from `POST /api/admin/stream-ticket`.',
    query: v.object({ ticket: v.optional(v.string()) }),
    raw: [{ status: 200, contentType: 'text/event-stream', description: 'The events, until the client closes the stream.' }],
  },
};
