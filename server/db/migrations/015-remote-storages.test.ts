import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseMigratedTo } from '../../../tests/fixtures/test-database';
import { migratorOf, type DB } from '../database';

const at = '2029-12-01T00:00:00.000Z';
const config = (id: string, storage_type: string) => ({
  id,
  name: id,
  storage_type,
  provider_type: 'Local',
  default_folder: '',
  is_public: 1,
  is_default: 0,
  path_style: 0,
  created_by: 'admin',
  created_at: at,
  updated_at: at,
});

describe('migration 015-remote-storages', () => {
  const cleanUps: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });

  async function databaseBefore015(): Promise<DB> {
    const { db, close } = await databaseMigratedTo('014-live-transfers');
    cleanUps.push(close);
    return db;
  }

  it('takes the new kinds, keeps every row, its references and the one-default index, and still refuses others', async () => {
    const db = await databaseBefore015();
    const raw = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await raw.insertInto('storage_configs').values({ ...config('c-local', 'LOCAL'), is_default: 1 }).execute();
    await raw
      .insertInto('files')
      .values({ id: 'f1', slug: 's1', filename: 'a', mimetype: 'text/plain', size: 1, storage_config_id: 'c-local', storage_path: 'a', max_views: 0, status: 'committed', created_by: 'admin', created_at: at, updated_at: at })
      .execute();
    await expect(raw.insertInto('storage_configs').values(config('c-early', 'SFTP')).execute()).rejects.toThrow();

    const { error } = await (await migratorOf(db)).migrateToLatest();
    expect(error).toBeUndefined();

    await raw.insertInto('storage_configs').values({ ...config('c-sftp', 'SFTP'), host: 'example.com', port: 22 }).execute();
    await raw.insertInto('storage_configs').values(config('c-dav', 'WEBDAV')).execute();
    await expect(raw.insertInto('storage_configs').values(config('c-bad', 'GOPHER')).execute()).rejects.toThrow();
    // The index keeping one default is still there.
    await expect(raw.insertInto('storage_configs').values({ ...config('c-ftp', 'FTP'), is_default: 1 }).execute()).rejects.toThrow();
    const rows = await raw.selectFrom('storage_configs').select(['id', 'storage_type', 'allow_private_host', 'port']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'c-dav', storage_type: 'WEBDAV', allow_private_host: 0, port: null },
      { id: 'c-local', storage_type: 'LOCAL', allow_private_host: 0, port: null },
      { id: 'c-sftp', storage_type: 'SFTP', allow_private_host: 0, port: 22 },
    ]);
    // Files still reference their config, and the reference is still enforced.
    expect((await raw.selectFrom('files').select('storage_config_id').execute())[0]).toEqual({ storage_config_id: 'c-local' });
    await expect(raw.deleteFrom('storage_configs').where('id', '=', 'c-local').execute()).rejects.toThrow();
    await sql`select 1`.execute(db);
  });
});
