import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ShareSearchResult } from '../../../contract/search';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { dialectOf, insertionOrder, newestPage } from '../../db/dialect';
import { SEARCHED_TEXT_CHARS } from '../../db/migrations/017-share-search';
import { scopedFiles } from '../file-shares/management';
import { toFileShare } from '../file-shares/records';
import { pasteSummaries, toPasteSummary } from '../pastes/pastes';
import { viewCountsOf } from '../shares/view-counts';
import { ftsPhrase, likePattern, trigramsServe } from './matching';

/**
 * The share search (`/api/{admin,user}/search/shares`): pastes by slug, remark and the text of plain pastes (never an
 * encrypted paste's payload), file shares by slug, file name and remark; a case-insensitive substring, newest first.
 * The indexes are migration 017's: FTS5 trigram tables on SQLite, pg_trgm GIN indexes on PostgreSQL.
 */

/** Every share (admin), or one creator's (`admin`, `apikey:<id>`); `pastes`/`files`: which kinds the caller may see. */
export type ShareSearchScope = ({ all: true } | { all: false; createdBy: string }) & { pastes: boolean; files: boolean };

export async function searchShares(deps: Pick<AppDeps, 'db' | 'now'>, scope: ShareSearchScope, query: string, limit: number): Promise<ShareSearchResult> {
  await viewCountsOf(deps).flush(); // Results show every counted view, as the lists do.
  const now = deps.now();
  const [pastes, files] = await Promise.all([
    scope.pastes ? newestPage(pasteSummaries(deps.db, scope).where(pasteMatch(deps.db, query)), deps.db, limit, 0).execute() : [],
    scope.files
      ? newestPage(scopedFiles(deps.db, scope).where('status', '=', 'committed').where(fileMatch(deps.db, query)), deps.db, limit, 0).execute()
      : [],
  ]);
  return { pastes: pastes.map((row) => toPasteSummary(row, now)), files: files.map((row) => toFileShare(row, now)) };
}

const useFts = (db: DB, query: string) => dialectOf(db) === 'sqlite' && trigramsServe(query);

/**
 * `+rowid in (matches)`: the unary `+` keeps SQLite from looking up every match by rowid and sorting them all with
 * their summaries; it walks the newest-first index instead, tests each rowid against the matches, and stops at the
 * limit (a word in all of 10,000 pastes: 92 ms the first way, 17 ms this way; a rare word 0.1 ms against 2.5 ms).
 */
const amongFtsMatches = (...matches: RawBuilder<unknown>[]) => sql<SqlBool>`+rowid in (${sql.join(matches, sql` union `)})`;

/** Pastes whose slug or remark holds the query, or whose text does when it is plain text. */
function pasteMatch(db: DB, query: string): RawBuilder<SqlBool> {
  if (useFts(db, query)) return amongFtsMatches(ftsRowids('pastes_search', query), ftsRowids('paste_texts_search', query));
  const pattern = likePattern(query);
  const text = sql`substr(content, 1, ${sql.lit(SEARCHED_TEXT_CHARS)})`;
  return likeMatches(db, query, 'pastes', sql`${contains(sql.ref('slug'), pattern)} or ${contains(sql.ref('remark'), pattern)} or (encryption is null and ${contains(text, pattern)})`);
}

/** File shares whose slug, file name or remark holds the query. */
function fileMatch(db: DB, query: string): RawBuilder<SqlBool> {
  if (useFts(db, query)) return amongFtsMatches(ftsRowids('files_search', query));
  const pattern = likePattern(query);
  return likeMatches(db, query, 'files', sql`${contains(sql.ref('slug'), pattern)} or ${contains(sql.ref('filename'), pattern)} or ${contains(sql.ref('remark'), pattern)}`);
}

/**
 * Rows of `table` meeting `condition` (LIKEs on `query`). PostgreSQL, a query its trigram indexes serve: in a
 * subquery that `offset 0` keeps whole, so that the matches are found first, through the indexes, and the newest
 * taken from them. Left to itself, the planner guessed hundreds of matches for a rare word and walked the
 * newest-first index testing every row (120–200 ms over 10,000 pastes, for one match or none; 9 ms this way). A
 * shorter query is left to walk that index: no index narrows it, and the walk stops at the limit.
 */
function likeMatches(db: DB, query: string, table: 'pastes' | 'files', condition: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  if (dialectOf(db) !== 'postgres' || !trigramsServe(query)) return sql`(${condition})`;
  const order = insertionOrder(db);
  return sql`${order} in (select ${order} from ${sql.table(table)} where ${condition} offset 0)`;
}

/** The rows of an FTS5 trigram table holding the query: as one quoted phrase, its characters in a row, any case. */
const ftsRowids = (table: string, query: string) =>
  sql`select rowid from ${sql.table(table)} where ${sql.table(table)} match ${ftsPhrase(query)}`;

/**
 * Both sides lowered by the database, so that they are folded alike (SQLite's lower() folds ASCII only). On
 * PostgreSQL `lower(column)` is the expression its trigram indexes are on (the text's first SEARCHED_TEXT_CHARS
 * characters, as migration 017 indexes them).
 */
const contains = (column: RawBuilder<unknown>, pattern: string) => sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '\\'`;
