import { join } from 'node:path';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { connectPostgres, connectSqlite, migrationSchemaOf } from './dialect';
import { initialSchema } from './migrations/001-initial';
import { fileSharesIndexes } from './migrations/002-file-shares';
import { multipartUploads } from './migrations/003-multipart-uploads';
import { postgresTypes } from './migrations/004-postgres-types';
import { sharedState } from './migrations/005-shared-state';
import { webdav } from './migrations/006-webdav';
import { apiKeyHashes } from './migrations/007-api-key-hashes';
import { shareArea } from './migrations/008-share-area';
import { expenses } from './migrations/009-expenses';
import { pasteEncryption } from './migrations/010-paste-encryption';
import { fileRequests } from './migrations/011-file-requests';
import { nameReservations } from './migrations/012-name-reservations';
import { jobs } from './migrations/013-jobs';
import { liveTransfers } from './migrations/014-live-transfers';
import { remoteStorages } from './migrations/015-remote-storages';
import { fsIndex } from './migrations/016-fs-index';
import { shareSearch } from './migrations/017-share-search';
import { fsIndexNames } from './migrations/018-fs-index-names';
import { accessLog } from './migrations/019-access-log';
import { webhooks } from './migrations/020-webhooks';
import { twoFactor } from './migrations/021-two-factor';
import { fileRequestSentNames } from './migrations/022-file-request-sent-names';
import type { Database } from './schema';

export type DB = Kysely<Database>;

/** Migrations in order; names sort as they must run. One list for both dialects (see dialect.ts). */
export const migrations: Record<string, Migration> = {
  '001-initial': initialSchema,
  '002-file-shares': fileSharesIndexes,
  '003-multipart-uploads': multipartUploads,
  '004-postgres-types': postgresTypes,
  '005-shared-state': sharedState,
  '006-webdav': webdav,
  '007-api-key-hashes': apiKeyHashes,
  '008-share-area': shareArea,
  '009-expenses': expenses,
  '010-paste-encryption': pasteEncryption,
  '011-file-requests': fileRequests,
  '012-name-reservations': nameReservations,
  '013-jobs': jobs,
  '014-live-transfers': liveTransfers,
  '015-remote-storages': remoteStorages,
  '016-fs-index': fsIndex,
  '017-share-search': shareSearch,
  '018-fs-index-names': fsIndexNames,
  '019-access-log': accessLog,
  '020-webhooks': webhooks,
  '021-two-factor': twoFactor,
  '022-file-request-sent-names': fileRequestSentNames,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The SQLite file of a data folder. */
export const sqlitePath = (dataDir: string) => join(dataDir, 'clipstash.sqlite');

/**
 * Opens the database and applies pending migrations: PostgreSQL when `databaseUrl` is given (`DATABASE_URL`),
 * else `clipstash.sqlite` under dataDir (created if needed).
 */
export async function openDatabase(dataDir: string, databaseUrl?: string): Promise<DB> {
  const db = databaseUrl ? connectPostgres(databaseUrl) : connectSqlite(sqlitePath(dataDir));
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/**
 * Orders migrations applied in the same millisecond by name, as Kysely orders the list itself (`sort()`): its
 * default, `localeCompare`, would load ICU's collator at every start-up for names that are plain ASCII.
 */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A migrator of this server's migrations on `db` (its migration table where dialect.ts says). */
export async function migratorOf(db: DB): Promise<Migrator> {
  const schema = await migrationSchemaOf(db);
  return new Migrator({ db, provider, nameComparator: byName, ...(schema !== undefined && { migrationTableSchema: schema }) });
}

async function migrate(db: DB): Promise<void> {
  const { error, results } = await (await migratorOf(db)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
