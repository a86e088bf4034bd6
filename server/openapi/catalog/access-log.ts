import { accessLogSchema } from '../../../contract/access-log';
import { docsOf, type RouteDocs, type Tag } from './types';

const WHAT =
  'Each view of a paste, each download of a file share (`/api/file-view`, `/api/file-download`) and each peek ' +
  '(`HEAD`) at either, by anyone but the share\'s owner: its time, the visitor\'s address cut to its network ' +
  '(IPv4 /24, IPv6 /48) unless the admin keeps whole ones (`access_log_full_ip`), the user agent, the bytes sent ' +
  'and whether the answer went out whole. Identical accesses within one second (same kind, address, user agent ' +
  'and outcome) are one entry with their `count`. Accesses reach the log within about a second and stay for ' +
  '`access_log_retention_days` (90 by default).';

/** A share's access log and its CSV, under `/api/admin` (any share) and `/api/user` (your own). */
function logDocs(scope: 'admin' | 'user', shares: 'pastes' | 'files', tag: Tag): RouteDocs {
  const base = `/api/${scope}/${shares}/:slug/access-log` as const;
  const whose = scope === 'admin' ? 'any' : 'your';
  const what = shares === 'pastes' ? 'paste' : 'file share';
  return docsOf([
    [`GET ${base}`, {
      tag,
      summary: `The access log of ${whose} ${what}`,
      description:
        `${WHAT}\n\nNewest first, \`limit\` and \`offset\` page it; \`days\` counts views and peeks by UTC day, ` +
        '`lastOpenedAt` is the newest view. `format=csv` answers the CSV of `…/access-log.csv` instead.',
      data: accessLogSchema,
      errors: [404],
    }],
    [`GET ${base}.csv`, {
      tag,
      summary: `The access log of ${whose} ${what} as CSV`,
      description:
        'RFC 4180 with a UTF-8 byte order mark (for Excel), a header line, then every access newest first: ' +
        '`time,ip,user_agent,kind,bytes,completed,count`.',
      raw: [{ status: 200, contentType: 'text/csv', description: 'The whole log, a header line first.', headers: ['Content-Disposition'] }],
      errors: [404],
    }],
  ]);
}

export const accessLogDocs: RouteDocs = {
  ...logDocs('admin', 'pastes', 'Pastes'),
  ...logDocs('user', 'pastes', 'Pastes'),
  ...logDocs('admin', 'files', 'File shares'),
  ...logDocs('user', 'files', 'File shares'),
};
