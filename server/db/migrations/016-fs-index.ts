import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf, trigramOperatorClass } from '../dialect';

/**
 * The mounts' search index (server/features/search/): one row per file or folder of a mount, the state of each
 * mount's index, and the durable queue of folders still to be read. Names are found by substring: SQLite through an
 * FTS5 trigram table over `name` (external content, kept by triggers), PostgreSQL through a pg_trgm GIN index on
 * `lower(name)`. Rows of a deleted mount go with it (foreign keys, which on SQLite fire the FTS triggers too).
 */
export const fsIndex: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === 'postgres';
    await db.schema
      .createTable('fs_index_entries')
      .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
        postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
      )
      .addColumn('mount_id', 'text', (c) => c.notNull().references('mounts.id').onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('parent', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('is_dir', 'integer', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('modified', 'text')
      .addUniqueConstraint('fs_index_entries_path', ['mount_id', 'path'])
      .execute();
    await db.schema.createIndex('fs_index_entries_parent').on('fs_index_entries').columns(['mount_id', 'parent']).execute();

    if (postgres) {
      await sql`create index fs_index_entries_name_trgm on fs_index_entries using gin (lower(name) ${await trigramOperatorClass(db)})`.execute(db);
    } else {
      await sql`create virtual table fs_index_fts using fts5(name, content='fs_index_entries', content_rowid='id', tokenize='trigram')`.execute(db);
      await sql`create trigger fs_index_entries_ai after insert on fs_index_entries begin
        insert into fs_index_fts(rowid, name) values (new.id, new.name); end`.execute(db);
      await sql`create trigger fs_index_entries_ad after delete on fs_index_entries begin
        insert into fs_index_fts(fs_index_fts, rowid, name) values ('delete', old.id, old.name); end`.execute(db);
      await sql`create trigger fs_index_entries_au after update of name on fs_index_entries begin
        insert into fs_index_fts(fs_index_fts, rowid, name) values ('delete', old.id, old.name);
        insert into fs_index_fts(rowid, name) values (new.id, new.name); end`.execute(db);
    }

    await db.schema
      .createTable('fs_index_mounts')
      .addColumn('mount_id', 'text', (c) => c.primaryKey().references('mounts.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('none', 'building', 'complete', 'failed')`))
      .addColumn('built_at', 'text')
      .addColumn('error', 'text')
      .addColumn('rescan_minutes', 'integer', (c) => c.notNull().defaultTo(60))
      .addColumn('next_rescan_at', 'text')
      .execute();
    await db.schema.createIndex('fs_index_mounts_rescan').on('fs_index_mounts').column('next_rescan_at').execute();

    await db.schema
      .createTable('fs_index_pending')
      .addColumn('mount_id', 'text', (c) => c.notNull().references('mounts.id').onDelete('cascade'))
      .addColumn('folder', 'text', (c) => c.notNull())
      .addColumn('deep', 'integer', (c) => c.notNull())
      // Bumped when the folder is queued again while being read: the reader then leaves the row for another pass.
      .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('holder', 'text')
      .addColumn('held_until', 'text')
      .addColumn('queued_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('fs_index_pending_pk', ['mount_id', 'folder'])
      .execute();
    await db.schema.createIndex('fs_index_pending_claim').on('fs_index_pending').columns(['held_until']).execute();
  },
};
