import { accessLogSchema } from '../../../contract/access-log';
import { apiRequest, currentScope, fetchBytes } from './client';

/** Which kind of share a log belongs to, as its management routes name it. */
export type LoggedShares = 'pastes' | 'files';

const logPath = (shares: LoggedShares, slug: string) => `/${currentScope()}/${shares}/${encodeURIComponent(slug)}/access-log`;

/** A page of a share's access log (newest first), with its counts by day and last view: for its owner or the admin. */
export const getAccessLog = (shares: LoggedShares, slug: string, limit: number, offset: number) =>
  apiRequest(`${logPath(shares, slug)}?limit=${limit}&offset=${offset}`, { schema: accessLogSchema, fileRoute: shares === 'files' });

/** The whole log as a CSV file to save. */
export async function accessLogCsv(shares: LoggedShares, slug: string): Promise<Blob> {
  return new Blob([await fetchBytes(`${logPath(shares, slug)}.csv`)], { type: 'text/csv' });
}
