import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf, trigramOperatorClass } from '../dialect';

/**
 * PostgreSQL only (SQLite's FTS5 trigram table needs nothing): `fs_index_entries.name_lower`, `lower(name)` stored,
 * with the trigram index moved onto it and a `text_pattern_ops` index for names that start with a query. A search
 * checked `lower(name)` again on every row the trigram index proposed and ranked every match by it: `lower()` in a
 * UTF-8 locale was most of a query's time (bench/README.md, search).
 */
export const fsNameLower: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) !== 'postgres') return;
    await sql`alter table fs_index_entries add column name_lower text generated always as (lower(name)) stored`.execute(db);
    await sql`drop index fs_index_entries_name_trgm`.execute(db);
    await sql`create index fs_index_entries_name_trgm on fs_index_entries using gin (name_lower ${await trigramOperatorClass(db)})`.execute(db);
    await sql`create index fs_index_entries_name_prefix on fs_index_entries (name_lower text_pattern_ops)`.execute(db);
  },
};
