import { shareSearchResultSchema } from '../../../contract/search';
import { docsOf, type RouteDocs, type Tag } from './types';

const tag: Tag = 'Search';

const MATCHING =
  '`q` is found as a substring, whatever its case, Chinese included: in a paste\'s slug, remark, or text (never in the ' +
  'payload of an end-to-end encrypted paste, which is not indexed), and in a file share\'s slug, file name or remark. ' +
  'Pastes and files come newest first, at most `limit` of each, shaped as the management lists answer them; expired ' +
  'and used-up shares are found too, with their `state`.';

export const shareSearchDocs: RouteDocs = docsOf([
  ['GET /api/admin/search/shares', { tag, summary: 'Find any paste or file share', description: MATCHING, data: shareSearchResultSchema }],
  [
    'GET /api/user/search/shares',
    {
      tag,
      summary: 'Find your pastes and file shares',
      description: `${MATCHING}\n\nOnly the shares you created: pastes when the key has the \`text\` permission, files when it has \`file\`.`,
      data: shareSearchResultSchema,
    },
  ],
]);
