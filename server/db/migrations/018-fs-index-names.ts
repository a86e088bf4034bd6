import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf, trigramOperatorClass } from '../dialect';

/**
 * PostgreSQL only (SQLite's FTS5 trigram table needs nothing), for the mount search's speed (bench/README.md,
 * search): `fs_index_entries.name_lower`, `lower(name)` stored, since `lower()` on every row a query looked at was
 * most of its time; the trigram index moved onto it; a `text_pattern_ops` index for names that start with a query;
 * and a GIN index of each name's two-character pieces (`fs_index_bigrams`), for the 2-character queries that
 * trigrams cannot serve.
 */
export const fsIndexNames: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) !== 'postgres') return;
    await sql`alter table fs_index_entries add column name_lower text generated always as (lower(name)) stored`.execute(db);
    await sql`drop index fs_index_entries_name_trgm`.execute(db);
    await sql`create index fs_index_entries_name_trgm on fs_index_entries using gin (name_lower ${await trigramOperatorClass(db)})`.execute(db);
    await sql`create index fs_index_entries_name_prefix on fs_index_entries (name_lower text_pattern_ops)`.execute(db);
    await sql`create function fs_index_bigrams(name text) returns text[] language sql immutable strict parallel safe
      as $$ select coalesce(array_agg(distinct substr(name, i, 2)), '{}') from generate_series(1, length(name) - 1) as i $$`.execute(db);
    await sql`create index fs_index_entries_name_bigrams on fs_index_entries using gin (fs_index_bigrams(name_lower))`.execute(db);
  },
};
