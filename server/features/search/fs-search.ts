import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type * as v from 'valibot';
import { mimeTypeOf } from '../../../contract/mime';
import type { FsSearchHit, FsSearchResult, fsSearchQuerySchema } from '../../../contract/search';
import type { AppDeps } from '../../context';
import { dialectOf } from '../../db/dialect';
import type { DB } from '../../db/database';
import type { Database, FsIndexEntriesTable } from '../../db/schema';
import { badInput } from '../../errors';
import type { Lang } from '../../i18n/messages';
import { visibleMounts, type MountRow } from '../mounts/mounts';
import { displayPath, isWithin, outsideBasePath, pathOfSegments, type FsPath } from '../fs/paths';
import type { FsCaller } from '../fs/resolve';
import { mountIndexes } from './index-records';
import { indexerOf } from './indexer';
import { ftsPhrase, likePattern, likePrefix, trigramsServe } from './matching';
import { startsWith } from './read-folder';

export type FsSearchInput = v.InferOutput<typeof fsSearchQuerySchema>;

/** What a search may see of one mount: below `prefix` (inside the mount; null: all of it), never under `shadowed`. */
interface MountScope {
  mount: MountRow;
  prefix: string | null;
  /** Inner paths where deeper mounts are mounted: their own indexes answer for what lies there. */
  shadowed: string[];
}

const segmentsOf = (mountPath: string) => mountPath.split('/').filter(Boolean);

/** The folder a search looks below: the `path` filter within the caller's base path. */
function scopeOf(caller: FsCaller, path: FsPath): FsPath {
  if (isWithin(path, caller.basePath)) return path;
  if (isWithin(caller.basePath, path)) return caller.basePath;
  throw outsideBasePath(caller.basePath.text);
}

function mountScopes(mounts: MountRow[], scope: FsPath): MountScope[] {
  const scopes: MountScope[] = [];
  for (const mount of mounts) {
    let prefix: string | null;
    if (isWithin(mount.mount_path, scope)) prefix = null;
    else if (isWithin(scope, mount.mount_path)) prefix = scope.segments.slice(segmentsOf(mount.mount_path).length).join('/');
    else continue;
    const depth = segmentsOf(mount.mount_path).length;
    const shadowed = mounts
      .filter((other) => other.id !== mount.id && isWithin(other.mount_path, mount.mount_path))
      .map((other) => segmentsOf(other.mount_path).slice(depth).join('/'));
    // A scope inside a deeper mount belongs to that mount alone.
    if (prefix !== null && shadowed.some((inner) => prefix === inner || prefix!.startsWith(`${inner}/`))) continue;
    scopes.push({ mount, prefix, shadowed });
  }
  return scopes;
}

interface Cursor {
  offset: number;
}

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(text: string | undefined): Cursor {
  if (text === undefined) return { offset: 0 };
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString()) as Partial<Cursor>;
    if (typeof parsed.offset === 'number' && Number.isSafeInteger(parsed.offset) && parsed.offset >= 0) return { offset: parsed.offset };
  } catch {
    // falls through to the 400
  }
  throw badInput('cursor', 'invalid_cursor');
}

/**
 * Names in the indexes of the mounts the caller sees, below the `path` filter and the caller's base path (both in
 * SQL, so nothing outside them is read, let alone counted), matched as case-insensitive substrings. The writes
 * queued for those mounts are read first, so that a file just deleted is not found.
 */
export async function searchFs(deps: AppDeps, caller: FsCaller, input: FsSearchInput, lang: Lang): Promise<FsSearchResult> {
  const cursor = decodeCursor(input.cursor);
  const scopes = mountScopes(await visibleMounts(deps, caller.principal), scopeOf(caller, input.path));
  if (scopes.length === 0) return { items: [], nextCursor: null, complete: true, incomplete: [] };
  const incomplete = await incompleteIndexes(deps, scopes, lang);

  await indexerOf(deps).settle(scopes.map((scope) => scope.mount.id));
  const db = deps.db;
  const rows =
    dialectOf(db) === 'postgres'
      ? await db.transaction().execute(async (trx) => {
          // PostgreSQL's planner has priced a scan of every row below the trigram index and chosen it: 5–10 times
          // slower than the index (bench/README.md, search). Its indexes serve queries of 2 characters or more.
          if (Array.from(input.q).length >= 2) await sql`set local enable_seqscan = off`.execute(trx);
          return postgresHits(trx, scopes, input, cursor.offset);
        })
      : await sqliteHits(db, scopes, input, cursor.offset);

  const mountPaths = new Map(scopes.map((scope) => [scope.mount.id, scope.mount.mount_path]));
  const items = rows.slice(0, input.limit).map((row) => hitOf(row, mountPaths.get(row.mount_id) ?? '/'));
  return {
    items,
    nextCursor: rows.length > input.limit ? encodeCursor({ offset: cursor.offset + input.limit }) : null,
    complete: incomplete.length === 0,
    incomplete,
  };
}

const HIT_COLUMNS = ['e.mount_id', 'e.path', 'e.parent', 'e.name', 'e.is_dir', 'e.size', 'e.modified'] as const;

/** The entries in the scopes, of the type asked for, with what a hit shows: every search query starts from these. */
function entriesInScope(db: DB, scopes: MountScope[], input: FsSearchInput) {
  const query = db
    .selectFrom('fs_index_entries as e')
    .select(HIT_COLUMNS)
    .where((eb) => eb.or(scopes.map((scope) => inScope(eb, scope))));
  return input.type ? query.where('e.is_dir', '=', input.type === 'folder' ? 1 : 0) : query;
}

/** `order=best` after the names that start with the query: shorter names first, then by name and path. */
const shortestFirst = <D, T extends keyof D, O>(query: SelectQueryBuilder<D, T, O>) =>
  query.orderBy(sql`length(e.name)`).orderBy(sql`e.name`).orderBy(sql`e.path`).orderBy(sql`e.mount_id`);

const newestFirst = <D, T extends keyof D, O>(query: SelectQueryBuilder<D, T, O>) =>
  query.orderBy(sql`e.modified desc nulls last`).orderBy(sql`e.path`).orderBy(sql`e.mount_id`);

/** One page of hits on SQLite (and one more, to know whether another page follows), in the order asked for. */
function sqliteHits(db: DB, scopes: MountScope[], input: FsSearchInput, offset: number): Promise<HitRow[]> {
  const q = input.q;
  const page = <D, T extends keyof D>(query: SelectQueryBuilder<D, T, HitRow>) =>
    (input.order === 'newest'
      ? newestFirst(query)
      : shortestFirst(query.orderBy(sql`case when substr(lower(e.name), 1, ${Array.from(q).length}) = lower(${q}) then 0 else 1 end`))
    )
      .limit(input.limit + 1)
      .offset(offset)
      .execute();
  const entries = entriesInScope(db, scopes, input);
  return trigramsServe(q)
    ? // Driven by the trigram index: a join, where `id in (…)` made SQLite walk the mount's rows (4× the time).
      page(
        entries.innerJoin(sql<{ rowid: number }>`(select rowid from fs_index_fts where fs_index_fts match ${ftsPhrase(q)})`.as('f'), (join) =>
          join.onRef('f.rowid', '=', 'e.id'),
        ),
      )
    : page(entries.where(sql<SqlBool>`e.name like ${likePattern(q)} escape '\\'`));
}

/** Names containing `q` on PostgreSQL (migration 018): 2-character queries, which no trigram serves, by their bigram. */
function postgresContains(q: string): RawBuilder<SqlBool> {
  const like = sql<SqlBool>`e.name_lower like lower(${likePattern(q)}) escape '\\'`;
  return Array.from(q).length === 2 ? sql<SqlBool>`fs_index_bigrams(e.name_lower) @> array[lower(${q})] and ${like}` : like;
}

/**
 * One page of hits on PostgreSQL. For `order=best` the names that start with the query come first: they are read
 * first (the prefix index), and the other matches only for what the page still lacks, so that no match is ranked
 * that cannot be on it.
 */
async function postgresHits(db: DB, scopes: MountScope[], input: FsSearchInput, offset: number): Promise<HitRow[]> {
  const entries = entriesInScope(db, scopes, input);
  const contains = postgresContains(input.q);
  if (input.order === 'newest') return newestFirst(entries.where(contains)).limit(input.limit + 1).offset(offset).execute();
  const wanted = offset + input.limit + 1;
  const starts = sql<SqlBool>`e.name_lower like lower(${likePrefix(input.q)}) escape '\\'`;
  const first = await shortestFirst(entries.where(starts)).limit(wanted).execute();
  const others =
    first.length < wanted
      ? await shortestFirst(entries.where(contains).where(sql<SqlBool>`not (${starts})`))
          .limit(wanted - first.length)
          .execute()
      : [];
  return [...first, ...others].slice(offset);
}

/** The searched mounts whose index is not complete (counting entries only for those: a count reads every row). */
async function incompleteIndexes(deps: AppDeps, scopes: MountScope[], lang: Lang) {
  const ids = scopes.map((scope) => scope.mount.id);
  const complete = await deps.db.selectFrom('fs_index_mounts').select('mount_id').where('mount_id', 'in', ids).where('state', '=', 'complete').execute();
  const done = new Set(complete.map((row) => row.mount_id));
  return mountIndexes(deps.db, scopes.map((scope) => scope.mount).filter((mount) => !done.has(mount.id)), lang);
}

type Eb = ExpressionBuilder<Database & { e: FsIndexEntriesTable }, 'e'>;

function inScope(eb: Eb, scope: MountScope): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb('e.mount_id', '=', scope.mount.id)];
  if (scope.prefix !== null && scope.prefix !== '') conditions.push(startsWith('e.path', `${scope.prefix}/`));
  for (const inner of scope.shadowed) {
    conditions.push(eb('e.path', '!=', inner), eb.not(startsWith('e.path', `${inner}/`)));
  }
  return eb.and(conditions);
}

interface HitRow {
  mount_id: string;
  path: string;
  parent: string;
  name: string;
  is_dir: number;
  size: number;
  modified: string | null;
}

function hitOf(row: HitRow, mountPath: string): FsSearchHit {
  const mountSegments = segmentsOf(mountPath);
  const path = pathOfSegments([...mountSegments, ...row.path.split('/')]);
  const folder = pathOfSegments([...mountSegments, ...row.parent.split('/').filter(Boolean)]);
  const isDirectory = row.is_dir === 1;
  return {
    name: row.name,
    path: displayPath(path, isDirectory),
    isDirectory,
    isVirtual: false,
    size: Number(row.size),
    modified: row.modified,
    mimetype: isDirectory ? null : mimeTypeOf(row.name),
    etag: null,
    folder: displayPath(folder, true),
    mountId: row.mount_id,
  };
}
