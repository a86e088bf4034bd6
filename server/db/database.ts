import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { initialSchema } from './migrations/001-initial';
import { fileSharesIndexes } from './migrations/002-file-shares';
import { multipartUploads } from './migrations/003-multipart-uploads';
import type { Database } from './schema';

export type DB = Kysely<Database>;

/** Migrations in order; names sort as they must run. */
const migrations: Record<string, Migration> = {
  '001-initial': initialSchema,
  '002-file-shares': fileSharesIndexes,
  '003-multipart-uploads': multipartUploads,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Opens (creating if needed) `clipstash.sqlite` under dataDir in WAL mode and applies pending migrations. */
export async function openDatabase(dataDir: string): Promise<DB> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(join(dataDir, 'clipstash.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return db;
}
