import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseMigratedTo } from '../../../tests/fixtures/test-database';
import { searchShares } from '../../features/search/share-search';
import { migratorOf, type DB } from '../database';

const at = '2029-12-01T00:00:00.000Z';
const paste = (id: string, content: string, extra: Record<string, unknown> = {}) => ({
  id,
  slug: id,
  content,
  max_views: 0,
  created_by: 'admin',
  created_at: at,
  updated_at: at,
  ...extra,
});

describe('migration 017-share-search', () => {
  const cleanUps: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });

  async function databaseBefore017(): Promise<DB> {
    const { db, close } = await databaseMigratedTo('015-remote-storages');
    cleanUps.push(close);
    return db;
  }

  it('indexes the pastes and files that existed before it, never an encrypted paste\'s payload', async () => {
    const db = await databaseBefore017();
    const raw = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await raw.insertInto('pastes').values(paste('old-plain', 'the heliotrope ledger, 春季报告')).execute();
    await raw.insertInto('pastes').values(paste('old-remark', 'x', { remark: 'Chrysanthemum list' })).execute();
    await raw.insertInto('pastes').values(paste('old-sealed', 'c2VhbGVkaGVsaW90cm9wZXBheWxvYWQ', { encryption: 'aes-256-gcm', remark: 'sealed' })).execute();
    await raw
      .insertInto('storage_configs')
      .values({ id: 'c', name: 'c', storage_type: 'LOCAL', provider_type: 'Local', default_folder: '', is_public: 1, is_default: 1, path_style: 0, created_by: 'admin', created_at: at, updated_at: at })
      .execute();
    const file = { mimetype: 'text/plain', size: 1, storage_config_id: 'c', max_views: 0, created_by: 'admin', created_at: at, updated_at: at };
    await raw.insertInto('files').values({ ...file, id: 'f1', slug: 'old-file', filename: 'Bougainvillea.txt', storage_path: 'a', status: 'committed' }).execute();

    const { error } = await (await migratorOf(db)).migrateToLatest();
    expect(error).toBeUndefined();

    const deps = { db, now: () => new Date(at) };
    const find = (q: string) => searchShares(deps, { all: true, pastes: true, files: true }, q, 20);
    const slugs = async (q: string) => {
      const found = await find(q);
      return { pastes: found.pastes.map((p) => p.slug), files: found.files.map((f) => f.slug) };
    };
    expect(await slugs('HELIOTROPE')).toEqual({ pastes: ['old-plain'], files: [] });
    expect(await slugs('春季报告')).toEqual({ pastes: ['old-plain'], files: [] });
    expect(await slugs('santhemum')).toEqual({ pastes: ['old-remark'], files: [] });
    expect(await slugs('old-sea')).toEqual({ pastes: ['old-sealed'], files: [] });
    expect(await slugs('VhbGVkaGVs')).toEqual({ pastes: [], files: [] });
    expect(await slugs('bougainvillea')).toEqual({ pastes: [], files: ['old-file'] });
    // And the triggers keep it from here on.
    await raw.updateTable('pastes').set({ content: 'the marigold ledger' }).where('id', '=', 'old-plain').execute();
    expect(await slugs('heliotrope')).toEqual({ pastes: [], files: [] });
    expect(await slugs('marigold')).toEqual({ pastes: ['old-plain'], files: [] });
  });
});
