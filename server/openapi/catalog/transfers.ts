import { liveTransferListSchema } from '../../../contract/jobs';
import type { RouteDocs, Tag } from './types';

const tag: Tag = 'Tasks';

export const transferDocs: RouteDocs = {
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
      'second per transfer, from every instance; a comment line keeps a quiet stream open.',
    raw: [{ status: 200, contentType: 'text/event-stream', description: 'The events, until the client closes the stream.' }],
  },
};
