import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPasteListSchema, createdPasteSchema } from '../../contract/pastes';
import { fileClient } from '../../tests/fixtures/files';
import { freshSchema, type FreshSchema } from '../../tests/fixtures/postgres';
import { createTestApp, DEFAULT_IP, expectOk, type TestApp } from '../../tests/fixtures/test-app';
import { testPostgresUrl, usingPostgres } from '../../tests/fixtures/test-database';
import { createApp } from '../app';
import { CopyError, copyDatabase } from './copy-database';
import { openDatabase, type DB } from './database';

/** A copy needs both databases: it runs with the server suite's PostgreSQL run. */
describe.skipIf(!usingPostgres())('copying a SQLite install into PostgreSQL (npm run migrate-db)', () => {
  let source: TestApp;
  let schema: FreshSchema;
  let target: DB;
  let token: string;
  let apiKey: string;
  const GIB = 2 ** 30;

  const paste = async (content: string) =>
    expectOk(await source.request('/api/paste', { token, json: { content } }), createdPasteSchema, 201);
  const pasteList = async (app: { request: TestApp['request'] }) =>
    (await expectOk(await app.request('/api/admin/pastes?page=1&limit=50', { token }), adminPasteListSchema)).items.map((item) => item.slug);
  /** The copied install, served: same secrets (the key that seals them travels in ENCRYPTION_KEY, not the database). */
  const targetApp = () => {
    const app = createApp({ ...source.deps, db: target });
    return {
      request: (path: string, options: { token?: string; apiKey?: string } = {}) => {
        const authorization = options.token ? `Bearer ${options.token}` : options.apiKey ? `ApiKey ${options.apiKey}` : undefined;
        return Promise.resolve(
          app.request(path, { headers: authorization ? { authorization } : {} }, { incoming: { socket: { remoteAddress: DEFAULT_IP } } }),
        );
      },
    };
  };

  beforeAll(async () => {
    source = await createTestApp({ sqlite: true });
    schema = await freshSchema(testPostgresUrl() ?? '');
    target = await openDatabase('', schema.url);
    token = await source.login();
    // Rows of the same millisecond (the clock stands still): their order must survive the copy.
    for (const content of ['first', 'second', 'ünïcødé 🎉 "quotes" \\ back', 'x'.repeat(100_000)]) await paste(content);
    await source.request('/api/admin/login', { json: { username: 'admin', password: 'wrong' } });
    apiKey = (await source.createKey(token, { name: 'copied key', text_permission: true })).key;
    await fileClient(source).uploadOk(Buffer.from('file bytes'), { token });
    // A byte count past 2^31, as PostgreSQL's integer could not hold it.
    const file = await source.db.selectFrom('files').selectAll().executeTakeFirstOrThrow();
    await source.db.insertInto('files').values({ ...file, id: 'huge', slug: 'huge', size: 3 * GIB }).execute();
  });
  afterAll(async () => {
    await target?.destroy();
    await schema?.drop();
    await source?.close();
  });

  it('copies every table, verified, and the copy serves the same install: sessions, lists in the same order', async () => {
    const lines: string[] = [];
    const copies = await copyDatabase(source.db, target, { batchRows: 2, log: (line) => lines.push(line) });
    const tables = copies.map((copy) => copy.table);
    for (const table of ['admins', 'admin_tokens', 'api_keys', 'pastes', 'storage_configs', 'files', 'mounts', 'login_failures']) {
      expect(tables).toContain(table);
    }
    // Referenced tables first.
    expect(tables.indexOf('admins')).toBeLessThan(tables.indexOf('admin_tokens'));
    expect(tables.indexOf('storage_configs')).toBeLessThan(tables.indexOf('files'));
    expect(copies.find((copy) => copy.table === 'pastes')?.rows).toBe(4);
    expect(lines).toContain('pastes: 4 rows copied, count and checksum verified');

    const copied = targetApp();
    expect(await pasteList(copied)).toEqual(await pasteList(source));
    expect((await target.selectFrom('files').select('size').where('id', '=', 'huge').executeTakeFirstOrThrow()).size).toBe(3 * GIB);
    // Only the key's hash and prefix travel (the key is stored nowhere), and the key works on the copy.
    const key = await target.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
    expect(key).toEqual(await source.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow());
    expect((await copied.request('/api/test/api-key', { apiKey })).status).toBe(200);
  });

  it('refuses to copy over data unless told to replace it, then copies the source as it is now', async () => {
    const refused = await copyDatabase(source.db, target).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CopyError);
    expect((refused as Error).message).toMatch(/already holds data \(.*pastes: 4.*\)\. Run again with --replace/);

    const [gone] = await pasteList(source);
    await source.db.deleteFrom('pastes').where('slug', '=', gone ?? '').execute();
    await paste('written after the first copy');
    const copies = await copyDatabase(source.db, target, { replace: true });
    expect(copies.find((copy) => copy.table === 'pastes')?.rows).toBe(4);
    expect(await pasteList(targetApp())).toEqual(await pasteList(source));
  });
});
