import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { migrations, type DB } from './database';

/**
 * `npm run migrate-db`: copies a SQLite database (the default install) into PostgreSQL (several instances), every
 * table in batches, in one transaction on the target: the target ends with a complete, verified copy or is left as
 * it was. Rows are read in the source's insertion order, so that PostgreSQL's insertion-order column keeps it.
 * Verified per table by the row count and an order-independent checksum of every row (the two databases sort text
 * differently). Re-runnable: a target that already holds data is refused unless `replace`, which empties it first
 * (in the same transaction). The mounts' search index (`fs_index_*`) is not copied: it is derived from the storages,
 * and the target's first start queues a build of every mount's index.
 */
export interface CopyOptions {
  /** Empty a target that already holds data before copying. */
  replace?: boolean;
  /** Rows read (and written) at a time. */
  batchRows?: number;
  /** Progress, one line at a time. */
  log?: (line: string) => void;
}

export interface TableCopy {
  table: string;
  rows: number;
  checksum: string;
}

export class CopyError extends Error {}

// The source is read through raw SQL (its tables are whatever its migrations made), the target likewise.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

interface SourceTable {
  name: string;
  columns: string[];
  primaryKey: string[];
  /** Tables this one references (copied first). */
  references: string[];
}

/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

export async function copyDatabase(source: DB, target: DB, options: CopyOptions = {}): Promise<TableCopy[]> {
  const log = options.log ?? (() => undefined);
  const batchRows = options.batchRows ?? 200;
  await assertSameMigrations(source);
  const tables = dependencyOrder(await sourceTables(source));
  const targetColumns = await columnsOf(target);
  for (const table of tables) {
    if (!targetColumns.has(table.name)) throw new CopyError(`The target has no table "${table.name}": is it the same version of Clipstash?`);
  }

  return (target as AnyDb).transaction().execute(async (trx) => {
    const held = await rowsHeld(trx, tables);
    if (held.length > 0 && !options.replace) {
      throw new CopyError(
        `The target already holds data (${held.join(', ')}). Run again with --replace to empty it and copy anew ` +
          '(only while no instance is running on it).',
      );
    }
    // Children first, so that no foreign key is in the way.
    for (const table of [...tables].reverse()) await trx.deleteFrom(table.name).execute();

    const copies: TableCopy[] = [];
    for (const table of tables) {
      const columns = table.columns.filter((column) => targetColumns.get(table.name)?.has(column));
      const sourceSum = new TableChecksum();
      let rows = 0;
      for await (const batch of sourceBatches(source, table.name, columns, batchRows)) {
        batch.forEach((row) => sourceSum.add(columns.map((column) => row[column])));
        await insertRows(trx, table.name, columns, batch);
        rows += batch.length;
      }
      const copied = await targetChecksum(trx, table, columns, batchRows);
      if (copied.rows !== rows || copied.checksum !== sourceSum.digest()) {
        throw new CopyError(
          `Table ${table.name}: the copy does not match the source (${rows} rows, checksum ${sourceSum.digest()}; ` +
            `copied ${copied.rows} rows, checksum ${copied.checksum}). Nothing was changed on the target.`,
        );
      }
      log(`${table.name}: ${rows} rows copied, count and checksum verified`);
      copies.push({ table: table.name, rows, checksum: copied.checksum });
    }
    return copies;
  });
}

/** Both ends must be at this version's migrations, or the tables would not line up. */
async function assertSameMigrations(source: DB): Promise<void> {
  const applied = await sql<{ name: string }>`select name from kysely_migration order by name`
    .execute(source)
    .then((result) => result.rows.map((row) => row.name))
    .catch(() => [] as string[]);
  const known = Object.keys(migrations).sort();
  const missing = known.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new CopyError(`The source was made by a newer Clipstash (migrations ${unknown.join(', ')}): copy it with that version.`);
  }
  if (missing.length > 0) {
    throw new CopyError(`The source database is older than this Clipstash: start this version on it once (it updates itself), then copy.`);
  }
}

/** The source's tables (SQLite), with their columns, primary keys and the tables they reference. */
async function sourceTables(source: DB): Promise<SourceTable[]> {
  // Plain tables only: the search's FTS5 tables (`virtual`, and their `shadow` tables) are indexes that the
  // target keeps in its own way.
  const names = await sql<{ name: string }>`
    select name from pragma_table_list
    where schema = 'main' and type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'kysely\\_%' escape '\\'
      and name not like 'fs\\_index\\_%' escape '\\'
    order by name`.execute(source);
  const tables: SourceTable[] = [];
  for (const { name } of names.rows) {
    const info = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${name})`.execute(source);
    const keys = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(source);
    const primaryKey = info.rows.filter((column) => column.pk > 0).sort((x, y) => x.pk - y.pk).map((column) => column.name);
    if (primaryKey.length === 0) throw new CopyError(`Table ${name} has no primary key: cannot verify its copy`);
    tables.push({
      name,
      columns: info.rows.map((column) => column.name),
      primaryKey,
      references: [...new Set(keys.rows.map((key) => key.table))].filter((other) => other !== name),
    });
  }
  return tables;
}

/** Referenced tables before the tables that reference them. */
function dependencyOrder(tables: SourceTable[]): SourceTable[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: SourceTable[] = [];
  const visiting = new Set<string>();
  const visit = (table: SourceTable) => {
    if (ordered.includes(table)) return;
    if (visiting.has(table.name)) throw new CopyError(`Tables reference each other in a cycle through ${table.name}`);
    visiting.add(table.name);
    for (const name of table.references) {
      const referenced = byName.get(name);
      if (referenced) visit(referenced);
    }
    visiting.delete(table.name);
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

/** The target's tables → their columns (on PostgreSQL, of its own schema: see pg-introspector.ts). */
async function columnsOf(target: AnyDb): Promise<Map<string, Set<string>>> {
  const tables = await target.introspection.getTables();
  return new Map(tables.map((table) => [table.name, new Set(table.columns.map((column) => column.name))]));
}

async function rowsHeld(trx: AnyDb, tables: SourceTable[]): Promise<string[]> {
  const held: string[] = [];
  for (const table of tables) {
    const { count } = await trx
      .selectFrom(table.name)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(count) > 0) held.push(`${table.name}: ${Number(count)}`);
  }
  return held;
}

type Row = Record<string, unknown>;

/** The source's rows in insertion (rowid) order, a batch at a time. */
async function* sourceBatches(source: DB, table: string, columns: string[], batchRows: number): AsyncGenerator<Row[]> {
  let after: number | undefined;
  for (;;) {
    const where = after === undefined ? sql`` : sql`where rowid > ${after}`;
    const result = await sql<Row & { __rowid: number }>`
      select rowid as __rowid, ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(table)}
      ${where} order by rowid limit ${batchRows}`.execute(source);
    if (result.rows.length === 0) return;
    after = result.rows[result.rows.length - 1]?.__rowid;
    yield result.rows.map(({ __rowid: _rowid, ...row }) => row);
    if (result.rows.length < batchRows) return;
  }
}

async function insertRows(trx: AnyDb, table: string, columns: string[], rows: Row[]): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)));
  for (let start = 0; start < rows.length; start += perStatement) {
    const values = rows.slice(start, start + perStatement).map((row) => Object.fromEntries(columns.map((column) => [column, row[column]])));
    await trx.insertInto(table).values(values).execute();
  }
}

/** Count and checksum of the target's copy, read a batch at a time by primary key. */
async function targetChecksum(trx: AnyDb, table: SourceTable, columns: string[], batchRows: number) {
  const sum = new TableChecksum();
  let rows = 0;
  let after: unknown[] | undefined;
  const keys = sql.join(table.primaryKey.map((column) => sql.ref(column)));
  for (;;) {
    const where = after ? sql`where (${keys}) > (${sql.join(after.map((value) => sql`${value}`))})` : sql``;
    const result = await sql<Row>`
      select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(table.name)} ${where}
      order by ${keys} limit ${batchRows}`.execute(trx);
    for (const row of result.rows) sum.add(columns.map((column) => row[column]));
    rows += result.rows.length;
    const last = result.rows[result.rows.length - 1];
    if (!last || result.rows.length < batchRows) return { rows, checksum: sum.digest() };
    after = table.primaryKey.map((column) => last[column]);
  }
}

/**
 * The sum (mod 2^64) of a hash of every row: independent of the order rows are read in. Values are compared as
 * the app wrote them: numbers as numbers (PostgreSQL's 64-bit integers arrive as numbers too), text as text.
 */
class TableChecksum {
  private total = 0n;

  add(values: unknown[]): void {
    const text = JSON.stringify(values.map((value) => (value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value)));
    this.total = (this.total + createHash('sha256').update(text).digest().readBigUInt64BE(0)) & 0xffff_ffff_ffff_ffffn;
  }

  digest(): string {
    return this.total.toString(16).padStart(16, '0');
  }
}
