import { fsSearchResultSchema, mountIndexListSchema, mountIndexSchema } from '../../../contract/search';
import { docsOf, type RouteDoc, type RouteDocs, type RouteKey } from './types';

const searchDoc = (area: 'admin' | 'user'): [RouteKey, RouteDoc] => [
  `GET /api/${area}/fs/search`,
  {
    tag: 'Mount file system',
    summary: area === 'admin' ? 'Find files and folders in every mount by name' : 'Find files and folders in your mounts by name',
    description:
      'Case-insensitive substring of the name (`port` finds `report.pdf`, `报告` finds `年度报告.docx`), from the mounts\' ' +
      'indexes: only mounts you see, only below your base path and `path`. `order=best` puts names that start with ' +
      'the words first, then shorter names; `newest` the last modified first. Pass `nextCursor` as `cursor` for the ' +
      'next page. `incomplete` lists the mounts searched whose index is still building (or never built, or failed): ' +
      'their files may be missing. Writes through Clipstash are in the answer at once; changes made to a storage ' +
      'behind Clipstash\'s back are found at its next rescan.',
    data: fsSearchResultSchema,
  },
];

export const fsSearchDocs: RouteDocs = docsOf([searchDoc('admin'), searchDoc('user')]);

const tag = 'Mounts';

export const fsIndexDocs: RouteDocs = {
  'GET /api/admin/fs/index': {
    tag,
    summary: 'The search index of every mount: state, entries, folders still to read, rescan schedule',
    data: mountIndexListSchema,
  },
  'POST /api/admin/fs/index/rebuild': {
    tag,
    summary: 'Walk a mount again into its search index',
    description: 'The index stays searchable while the walk runs (`state: building`); it goes on after a restart.',
    data: mountIndexSchema,
    ok: [202],
    errors: [404],
  },
  'PUT /api/admin/fs/index/:mountId': {
    tag,
    summary: 'Set how often a mount is rescanned for changes made outside Clipstash',
    description: '`rescanMinutes`: 0 turns the rescan off (for huge remote storages); the next one counts from the last complete walk.',
    data: mountIndexSchema,
    errors: [404],
  },
};
