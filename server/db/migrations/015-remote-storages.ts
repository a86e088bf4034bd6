import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect';

const OLD_CHECK = "storage_type in ('LOCAL', 'S3')";
const NEW_CHECK = "storage_type in ('LOCAL', 'S3', 'WEBDAV', 'SFTP', 'FTP')";

/**
 * WebDAV, SFTP and FTP storages: their connection columns (WebDAV's address is `endpoint_url`; secrets sealed as the
 * S3 secret is), and `storage_type` takes their kinds. PostgreSQL swaps the column's check; SQLite cannot change a
 * check in place, so the table is rebuilt from its own definition with the new check (files keep pointing at it).
 */
export const remoteStorages: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') {
      await sql`alter table storage_configs drop constraint storage_configs_storage_type_check`.execute(db);
      await sql.raw(`alter table storage_configs add constraint storage_configs_storage_type_check check (${NEW_CHECK})`).execute(db);
    } else {
      await widenSqliteCheck(db);
    }
    const table = () => db.schema.alterTable('storage_configs');
    for (const column of ['host', 'username', 'password_encrypted', 'private_key_encrypted', 'passphrase_encrypted', 'host_key_sha256', 'tls']) {
      await table().addColumn(column, 'text').execute();
    }
    await table().addColumn('port', 'integer').execute();
    await table().addColumn('passive', 'integer').execute();
    await table().addColumn('allow_private_host', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};

/**
 * The 12-step rebuild of SQLite's ALTER TABLE documentation: foreign keys off (migrations on SQLite run outside a
 * transaction, so the pragma takes), a new table from the old one's SQL, rows copied, the old one dropped, the new
 * one renamed, its indexes made again, the keys checked, foreign keys back on.
 */
async function widenSqliteCheck(db: Kysely<unknown>) {
  const found = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'storage_configs'`.execute(db);
  const definition = found.rows[0]?.sql ?? '';
  if (!definition.includes(OLD_CHECK)) throw new Error('storage_configs has an unexpected definition; migration 015 cannot widen its check');
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'storage_configs' and sql is not null`.execute(db);
  const rebuilt = definition.replace(OLD_CHECK, NEW_CHECK).replace(/^create table\s+"?storage_configs"?/i, 'create table "storage_configs_015"');
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(rebuilt).execute(trx);
      await sql`insert into storage_configs_015 select * from storage_configs`.execute(trx);
      await sql`drop table storage_configs`.execute(trx);
      await sql`alter table storage_configs_015 rename to storage_configs`.execute(trx);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('migration 015 would break references to storage_configs');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
