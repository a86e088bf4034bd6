import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { dialectOf, trigramOperatorClass } from '../dialect';

/**
 * Indexes of the share search (server/features/search/share-search.ts): substrings of pastes' slug and remark, of the
 * text of plain pastes, and of file shares' slug, name and remark, Chinese included, case-insensitive.
 *
 * SQLite: FTS5 tables with the trigram tokenizer, external content (they hold the index, not a copy of the text),
 * kept by triggers. The text of pastes has a table of its own whose rows are the plain pastes only: an end-to-end
 * encrypted paste's payload is never indexed, and its content source is a view that leaves them out, so a `rebuild`
 * of that index cannot bring them in. The update triggers fire on the searched columns only, not on counted views.
 * PostgreSQL: pg_trgm GIN indexes on the lowered columns, the text's partial (plain pastes only). Of the text, the
 * first SEARCHED_TEXT_CHARS characters on both.
 * Existing rows are indexed here.
 */
/**
 * The characters of a paste's text that are indexed and searched, from its start: indexing all of a 10 MB paste
 * took seconds (a 10 MB edit over ten) on the connection every request shares. The search reads the same prefix.
 */
export const SEARCHED_TEXT_CHARS = 262_144;

export const shareSearch: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') await postgresIndexes(db);
    else await sqliteIndexes(db);
  },
};

async function postgresIndexes(db: Kysely<unknown>) {
  const ops = await trigramOperatorClass(db);
  const index = (name: string, table: string, column: RawBuilder<unknown>, where = sql``) =>
    sql`create index ${sql.id(name)} on ${sql.id(table)} using gin (lower(${column}) ${ops}) ${where}`.execute(db);
  await index('pastes_slug_trgm', 'pastes', sql.ref('slug'));
  await index('pastes_remark_trgm', 'pastes', sql.ref('remark'));
  await index('pastes_text_trgm', 'pastes', sql`substr(content, 1, ${sql.lit(SEARCHED_TEXT_CHARS)})`, sql`where encryption is null`);
  await index('files_slug_trgm', 'files', sql.ref('slug'));
  await index('files_filename_trgm', 'files', sql.ref('filename'));
  await index('files_remark_trgm', 'files', sql.ref('remark'));
}

interface FtsSpec {
  name: string;
  table: string;
  /** What FTS5 reads the indexed text from (a `rebuild`), and its rowid column. */
  source: string;
  sourceRowid: string;
  columns: string[];
  /** The columns whose update changes the index (default: the indexed ones). */
  watched?: string[];
  /** Rows of `table` that are indexed (default: all). */
  when?: (of: 'new' | 'old') => string;
  /** What is indexed of a column of the `new` or `old` row (default: all of it). */
  value?: (column: string, of: 'new' | 'old') => string;
}

/**
 * What a trigger writes to the FTS5 table for the `new` row, or FTS5's delete command with the `old` row's values
 * (an external-content table must be told what it indexed); nothing for a row `when` leaves out.
 */
function ftsWrite(spec: FtsSpec, of: 'new' | 'old'): string {
  const { name, columns } = spec;
  const values = columns.map((column) => (spec.value ? spec.value(column, of) : `${of}.${column}`)).join(', ');
  const where = spec.when ? ` where ${spec.when(of)}` : '';
  return of === 'old'
    ? `insert into ${name}(${name}, rowid, ${columns.join(', ')}) select 'delete', old.rowid, ${values}${where};`
    : `insert into ${name}(rowid, ${columns.join(', ')}) select new.rowid, ${values}${where};`;
}

/** An external-content FTS5 table over `source`, its triggers on `table`, and the existing rows indexed. */
async function ftsIndex(db: Kysely<unknown>, spec: FtsSpec) {
  const { name, table, columns } = spec;
  const watched = (spec.watched ?? columns).join(', ');
  const statements = [
    `create virtual table ${name} using fts5(${columns.join(', ')}, content='${spec.source}', content_rowid='${spec.sourceRowid}', tokenize='trigram')`,
    `create trigger ${name}_insert after insert on ${table} begin ${ftsWrite(spec, 'new')} end`,
    `create trigger ${name}_delete after delete on ${table} begin ${ftsWrite(spec, 'old')} end`,
    // One trigger, so that the old row leaves before the new one comes (a paste may also move in or out of `when`).
    `create trigger ${name}_update after update of ${watched} on ${table} begin ${ftsWrite(spec, 'old')} ${ftsWrite(spec, 'new')} end`,
    `insert into ${name}(${name}) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function sqliteIndexes(db: Kysely<unknown>) {
  await ftsIndex(db, { name: 'pastes_search', table: 'pastes', source: 'pastes', sourceRowid: 'rowid', columns: ['slug', 'remark'] });
  const prefix = (column: string) => `substr(${column}, 1, ${SEARCHED_TEXT_CHARS})`;
  await sql.raw(`create view plain_paste_texts as select rowid as paste_rowid, ${prefix('content')} as content from pastes where encryption is null`).execute(db);
  await ftsIndex(db, {
    name: 'paste_texts_search',
    table: 'pastes',
    source: 'plain_paste_texts',
    sourceRowid: 'paste_rowid',
    columns: ['content'],
    watched: ['content', 'encryption'],
    when: (of) => `${of}.encryption is null`,
    value: (column, of) => prefix(`${of}.${column}`),
  });
  await ftsIndex(db, { name: 'files_search', table: 'files', source: 'files', sourceRowid: 'rowid', columns: ['slug', 'filename', 'remark'] });
}
