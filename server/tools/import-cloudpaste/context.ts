import type { Transaction } from 'kysely';
import type { AppDeps } from '../../context';
import type { Database } from '../../db/schema';
import type { ImportReport } from './report';
import type { CloudPasteData } from './source';

export interface ImportOptions {
  /** CloudPaste's ENCRYPTION_SECRET. */
  secret: string;
  /** Import beside data the install already holds. */
  merge: boolean;
  /** Run everything, then roll the transaction back and move no object. */
  dryRun: boolean;
  /** The endpoint every imported S3 config gets instead of CloudPaste's (the storage moved, or a test's s3rver). */
  s3Endpoint?: string;
}

/**
 * The ids of the source's storage configs and API keys that this import brings: made by this run, or found made by
 * an earlier run of the same rows (the same bucket and keys, the same key secret). A row may point only at these;
 * any other id, the install's own or one missing from the source, is never trusted.
 */
export interface Brought {
  storageConfigs: Set<string>;
  apiKeys: Set<string>;
}

/**
 * What each kind's import gets: the app's deps on the import's transaction, the source, the options, the report,
 * and what the kinds imported before it brought.
 */
export interface ImportContext {
  deps: AppDeps & { db: Transaction<Database> };
  data: CloudPasteData;
  options: ImportOptions;
  report: ImportReport;
  brought: Brought;
}

/** CloudPaste's times (ISO, or SQLite's `YYYY-MM-DD HH:MM:SS` in UTC) as our canonical UTC ISO text. */
export function isoTime(text: string | null | undefined): string | null {
  if (!text) return null;
  const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`;
  const at = new Date(zoned);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The creation time, or the import's clock when CloudPaste's is unreadable. */
export const createdAt = (ctx: ImportContext, text: string | null | undefined): string =>
  isoTime(text) ?? ctx.deps.now().toISOString();

/**
 * Who owns a record, as our `created_by` says it: `apikey:<id>` stays (the import keeps the key's id), anything
 * else was one of CloudPaste's admins (their id, `admin:<id>` on mount uploads), and is `admin` here.
 */
export const ownerOf = (createdBy: string | null): string => (createdBy?.startsWith('apikey:') ? createdBy : 'admin');

/** Whether a row of that id exists: a previous run imported it (ids are CloudPaste's own). */
export async function exists(ctx: ImportContext, table: 'storage_configs' | 'mounts' | 'api_keys' | 'pastes' | 'files' | 'admins', id: string) {
  return (await ctx.deps.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
