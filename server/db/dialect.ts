import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  sql,
  SqliteDialect,
  type Compilable,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqliteDatabase,
} from 'kysely';
import { CurrentSchemaPostgresDialect } from './pg-introspector';
import type { Database } from './schema';
import { log } from '../observability/log';

/**
 * Everything that differs between SQLite (the default) and PostgreSQL (`DATABASE_URL`) lives here; the rest of the
 * server writes one query for both. What needs no help: times are canonical UTC ISO text and flags 0/1 integers on
 * both, `RETURNING` and `ON CONFLICT … DO UPDATE … WHERE` are spelled alike, `octet_length` exists in both.
 */
export type DialectName = 'sqlite' | 'postgres';

// Kysely<any>: migrations see an untyped database, services a typed one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const dialectOf = (db: AnyDb): DialectName =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

// ---------------------------------------------------------------------------------------------- connecting

/**
 * better-sqlite3's addon by its path: without one, better-sqlite3 searches a dozen places for it (the `bindings`
 * package) at every start-up. Its install script always downloads or builds it there.
 */
const SQLITE_ADDON = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');

/** A SQLite file in WAL mode (created with its folder unless read-only). */
export function connectSqlite(file: string, options: { readonly?: boolean } = {}): Kysely<Database> {
  const readonly = options.readonly ?? false;
  if (!readonly) mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file, { readonly, fileMustExist: readonly, nativeBinding: SQLITE_ADDON });
  if (!readonly) sqlite.pragma('journal_mode = WAL');
  // In WAL a commit need not wait for the disk: a killed process loses nothing, a power cut at most the last commits,
  // and the file is never corrupted. With FULL, each commit's fsync (3 ms, at times 40) held the event loop.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
  sqliteConnections.set(db, sqlite);
  return db;
}

/** The connection under each database connectSqlite opened, for keptSelect. */
const sqliteConnections = new WeakMap<AnyDb, SQLite.Database>();

/** Statements kept per database, most recently used last (queries with `in (…)` lists differ by their length). */
const STATEMENTS_KEPT = 500;

/**
 * Kysely prepares every query anew, and compiling its SQL was the largest part of a paste read's own time (more
 * than running it). A query's text is the same for every call with new parameters, so its statement is kept and
 * run again. Safe with one connection: Kysely runs one query at a time on it (a stream holds it until it ends),
 * and SQLite prepares a kept statement again by itself when a migration changed the schema.
 */
function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (statement) statements.delete(text);
      else statement = sqlite.prepare(text);
      statements.set(text, statement);
      if (statements.size > STATEMENTS_KEPT) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * 64-bit integers (counts, byte sizes) and sums (numeric) arrive as JavaScript numbers, as SQLite gives them: every
 * value the app stores is far below 2^53. Set per pool, so other users of `pg` in the process are not affected.
 */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * A pool on `DATABASE_URL`. Its `options` parameter may set a search_path (one schema per install or test). `pg` is
 * loaded by the first query, so that a server on SQLite never loads it.
 */
export function connectPostgres(url: string): Kysely<Database> {
  const openPool = async () => {
    const { default: pg } = await import('pg');
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    };
    const pool = new pg.Pool({ connectionString: url, types });
    // An idle connection dropped by the server (restart, failover) must not bring the process down; the next query
    // opens a new one. The message names no credentials.
    pool.on('error', (error) => log.error(`PostgreSQL connection lost: ${error.message}`));
    postgresPools.set(db, pool);
    return pool;
  };
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: openPool }) });
  return db;
}

/** The pool under each database connectPostgres opened, once its first query opened it. */
const postgresPools = new WeakMap<AnyDb, { totalCount: number; idleCount: number; waitingCount: number }>();

/** The PostgreSQL pool's connections (all, idle) and the queries waiting for one; undefined on SQLite or before use. */
export function postgresPoolStats(db: AnyDb): { total: number; idle: number; waiting: number } | undefined {
  const pool = postgresPools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/**
 * The schema Kysely's migration table must live in: Kysely finds its table in any schema unless told which, so
 * several installs (or test runs) sharing one PostgreSQL database in their own schemas would see each other's.
 * SQLite has no schemas.
 */
export async function migrationSchemaOf(db: AnyDb): Promise<string | undefined> {
  if (dialectOf(db) !== 'postgres') return undefined;
  const schema = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL: no schema to create tables in (the search_path names none that exists)');
  return schema;
}

/** `postgresql://host:port/database` without user, password or parameters: what logs may show of DATABASE_URL. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `postgresql://${parsed.host}${parsed.pathname}`;
  } catch {
    return 'postgresql (unparsable URL)';
  }
}

// ---------------------------------------------------------------------------------------------- queries

/** A compiled SELECT run with new parameters: its first row, or undefined. */
export type KeptSelect<Row> = (parameters: readonly unknown[]) => Promise<Row | undefined>;

/**
 * A SELECT compiled once and run again and again with new parameters, for the hottest read (a paste by its slug).
 * On SQLite its statement runs straight on the connection, its row taken as an array and named here: Kysely's
 * promise chain around a query and better-sqlite3's row objects were a fifth of a paste read's time in the app
 * (bench/README.md, reads). That is done only while no transaction is open on the connection, so that the read
 * never sees uncommitted writes; during one it waits in Kysely's queue as any query does. PostgreSQL runs it
 * through Kysely.
 */
export function keptSelect<Row>(db: AnyDb, query: Compilable<Row>): KeptSelect<Row> {
  const compiled = query.compile();
  const viaKysely: KeptSelect<Row> = async (parameters) => (await db.executeQuery<Row>({ ...compiled, parameters })).rows[0];
  const sqlite = sqliteConnections.get(db);
  if (!sqlite) return viaKysely;
  const statement = sqlite.prepare(compiled.sql).raw(true);
  let names = statement.columns().map((column) => column.name);
  const onConnection = (parameters: readonly unknown[]): Row | undefined => {
    const values = statement.get(parameters) as unknown[] | undefined;
    if (!values) return undefined;
    // SQLite prepares a statement again when the schema changed, and `select *` may then have other columns.
    if (values.length !== names.length) names = statement.columns().map((column) => column.name);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row as Row;
  };
  return (parameters) => {
    if (sqlite.inTransaction) return viaKysely(parameters);
    try {
      return Promise.resolve(onConnection(parameters));
    } catch (error) {
      // A failing statement rejects, as through Kysely, rather than throwing at the caller.
      return Promise.reject(error as Error);
    }
  };
}

/** The column PostgreSQL tables get for insertion order (SQLite has its implicit `rowid`). */
export const INSERTION_ORDER_COLUMN = 'seq';

/**
 * Breaks ties between rows created in the same millisecond, in the order they were inserted: SQLite's `rowid`,
 * PostgreSQL's identity column (its `ctid` moves when a row is updated, e.g. by a counted view).
 */
export const insertionOrder = (db: AnyDb): RawBuilder<unknown> =>
  dialectOf(db) === 'postgres' ? sql.ref(INSERTION_ORDER_COLUMN) : sql`rowid`;

/** A page of a list, newest first (by `created_at`, then insertion order): the order of every management list. */
export const newestPage = <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, db: AnyDb, limit: number, offset: number) =>
  query.orderBy(sql.ref('created_at'), 'desc').orderBy(insertionOrder(db), 'desc').limit(limit).offset(offset);

/** Migration step: gives a table the insertion-order column on PostgreSQL (see insertionOrder). */
export async function addInsertionOrder(db: AnyDb, table: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema
    .alterTable(table)
    .addColumn(INSERTION_ORDER_COLUMN, 'bigint', (column) => column.generatedByDefaultAsIdentity().notNull())
    .execute();
}

/**
 * Migration step: byte counts pass 2^31, which PostgreSQL's `integer` cannot hold. SQLite integers are 64-bit
 * whatever the declared type, so there is nothing to do there.
 */
export async function widenToBigint(db: AnyDb, table: string, column: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema.alterTable(table).alterColumn(column, (alter) => alter.setDataType('bigint')).execute();
}

/** The error a UNIQUE constraint on `table.column` raises when a write would break it. */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  if (!(error instanceof Error)) return false;
  const { code, table: pgTable, detail } = error as { code?: unknown; table?: unknown; detail?: unknown };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return error.message.includes(`${table}.${column}`);
  // PostgreSQL: unique_violation, with the table and `Key (column)=(value) already exists.`
  return code === '23505' && pgTable === table && typeof detail === 'string' && detail.startsWith(`Key (${column})=`);
}

/**
 * Serialises the transactions that take the same named lock, across every instance, until they end. SQLite needs
 * nothing: the server's one connection runs one transaction at a time. PostgreSQL: a transaction-scoped advisory
 * lock on the name's 64-bit hash.
 */
export async function lockTransaction(trx: AnyDb, name: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
}

/**
 * Migration step (PostgreSQL): the qualified name of pg_trgm's GIN operator class, creating the extension in
 * `public` unless the database has it already (wherever it is). In `public` rather than the install's own schema,
 * so that dropping one install's schema never drops the extension, and the indexes, of the others sharing the
 * database; naming the class with its schema works whatever the search_path. Kysely's migration lock (one for the
 * whole database) keeps two installs from creating it at once.
 */
export async function trigramOperatorClass(db: AnyDb): Promise<RawBuilder<unknown>> {
  await sql`create extension if not exists pg_trgm schema public`.execute(db);
  const found = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'
  `.execute(db);
  const schema = found.rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL: the pg_trgm extension could not be created');
  return sql`${sql.id(schema)}.gin_trgm_ops`;
}

/**
 * The end of a subquery that picks a row to claim: on PostgreSQL the rows other transactions are claiming are
 * skipped (without it, two claimers pick the same row and the loser gets none while others are free). SQLite runs
 * one write at a time and needs nothing.
 */
export const skipLocked = (db: AnyDb): RawBuilder<unknown> => (dialectOf(db) === 'postgres' ? sql`for update skip locked` : sql``);
