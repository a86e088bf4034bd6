import { accessLogDocs } from './catalog/access-log';
import { authDocs } from './catalog/auth';
import { expenseDocs } from './catalog/expenses';
import { fileDocs } from './catalog/files';
import { fileRequestDocs } from './catalog/file-requests';
import { fsDocs } from './catalog/fs';
import { fsIndexDocs, fsSearchDocs } from './catalog/fs-search';
import { jobsDocs, syncScheduleDocs } from './catalog/jobs';
import { mountDocs, storageDocs } from './catalog/mounts';
import { pasteDocs } from './catalog/pastes';
import { shareSearchDocs } from './catalog/share-search';
import type { RouteDoc, RouteDocs, RouteKey } from './catalog/types';
import { systemDocs } from './catalog/system';
import { transferDocs } from './catalog/transfers';
import { uploadDocs } from './catalog/uploads';
import { webhookDocs } from './catalog/webhooks';

/**
 * Summary, group, answer and failures of every API route, by `METHOD /path` as Hono lists it. Input schemas and
 * access rules are not here: they are read from the routes' own middlewares (annotations.ts).
 */
export const ROUTE_DOCS: ReadonlyMap<RouteKey, RouteDoc> = merge([
  pasteDocs,
  fileDocs,
  accessLogDocs,
  uploadDocs,
  fsDocs,
  fsSearchDocs,
  fsIndexDocs,
  mountDocs,
  storageDocs,
  authDocs,
  expenseDocs,
  fileRequestDocs,
  jobsDocs,
  syncScheduleDocs,
  systemDocs,
  transferDocs,
  shareSearchDocs,
  webhookDocs,
]);

function merge(parts: readonly RouteDocs[]): Map<RouteKey, RouteDoc> {
  const all = new Map<RouteKey, RouteDoc>();
  for (const part of parts) {
    for (const [key, doc] of Object.entries(part) as [RouteKey, RouteDoc][]) {
      if (all.has(key)) throw new Error(`${key} is documented twice`);
      all.set(key, doc);
    }
  }
  return all;
}
