import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeyListSchema } from '../../../contract/api-keys';
import { apiKeyTestResponseSchema, loginResponseSchema } from '../../../contract/auth';
import { freshSchema, type FreshSchema } from '../../../tests/fixtures/postgres';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, DEFAULT_IP, expectError, expectOk, type TestApp } from '../../../tests/fixtures/test-app';
import { testPostgresUrl, usingPostgres } from '../../../tests/fixtures/test-database';
import { createApp } from '../../app';
import { createSecretBox } from '../../security/secret-box';
import { ensureAdmin } from '../../features/auth/admins';
import { migratorOf, openDatabase, sqlitePath, type DB } from '../database';
import { connectPostgres, connectSqlite } from '../dialect';
import type { ApiKeysTable } from '../schema';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * An api_keys row as releases before 007 wrote it: the key's hash, and the key sealed with the install's secret box
 * (and none of the columns later migrations added).
 */
type OldApiKeysTable = Omit<ApiKeysTable, 'expense_permission'> & { key_encrypted: string };

/**
 * A database as the release before 007 left it (migrated up to 006-webdav), on this run's dialect, with the
 * folder (SQLite) or schema (PostgreSQL) it lives in, reopened later as the server opens it at start-up.
 */
async function databaseBefore007() {
  const dataDir = mkdtempSync(join(tmpdir(), 'clipstash-007-'));
  const cluster = testPostgresUrl();
  const schema: FreshSchema | undefined = cluster ? await freshSchema(cluster) : undefined;
  /** A connection that migrates nothing, typed with the old release's api_keys. */
  const connect = () => {
    const db = schema ? connectPostgres(schema.url) : connectSqlite(sqlitePath(dataDir));
    return { db, old: db as unknown as Kysely<{ api_keys: OldApiKeysTable }> };
  };
  const { db, old } = connect();
  const { error } = await (await migratorOf(db)).migrateTo('006-webdav');
  if (error) throw error;
  return {
    db: old,
    dataDir,
    connect: () => connect().old,
    /** Opens the database as the server does at start-up: every pending migration runs. */
    reopen: () => openDatabase(dataDir, schema?.url),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await schema?.drop();
    },
  };
}

describe('migration 007-api-key-hashes: keys made before it', () => {
  const oldSecrets = createSecretBox(randomBytes(32));
  let t: TestApp | undefined;
  const cleanUps: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
    await t?.close();
    t = undefined;
  });

  /** An old release's key: the row it wrote, and the sealed copy it kept. */
  const oldKey = (name: string, key: string, changes: Partial<OldApiKeysTable> = {}): OldApiKeysTable => ({
    id: `id-${name}`,
    name,
    key_hash: sha256(key),
    key_encrypted: oldSecrets.seal(key),
    key_prefix: key.slice(0, 6),
    text_permission: 1,
    file_permission: 0,
    mount_permission: 1,
    basic_path: '/local/team',
    expires_at: null,
    last_used: null,
    created_at: '2029-12-01T00:00:00.000Z',
    updated_at: '2029-12-01T00:00:00.000Z',
    ...changes,
  });

  it('keep working, and afterwards the database holds only their hash and prefix', async () => {
    const old = await databaseBefore007();
    cleanUps.push(old.drop);
    const generated = oldKey('generated', 'Ab3dEfGh1jKlMn0pQrStUvWx');
    const custom = oldKey('custom', 'my_Custom-key_01', { text_permission: 0 });
    const keys = { generated: 'Ab3dEfGh1jKlMn0pQrStUvWx', custom: 'my_Custom-key_01' };
    await old.db.insertInto('api_keys').values([generated, custom]).execute();
    await old.db.destroy();

    // The server starts on it (its secret box is not the one that sealed the keys: the migration needs none).
    const db: DB = await old.reopen();
    cleanUps.push(() => db.destroy());
    t = await createTestApp();
    await ensureAdmin(db, t.deps.config, t.clock.now());
    const app = createApp({ ...t.deps, db });
    const request = (path: string, authorization?: string) =>
      Promise.resolve(app.request(path, { headers: authorization ? { authorization } : {} }, { incoming: { socket: { remoteAddress: DEFAULT_IP } } }));

    // No column holds the key or its sealed copy, and the sealed copy's column is gone.
    const rows = await db.selectFrom('api_keys').selectAll().orderBy('name').execute();
    expect(rows.map((row) => row.name)).toEqual(['custom', 'generated']);
    for (const row of rows) {
      expect(row).not.toHaveProperty('key_encrypted');
      const [key, sealed] = row.name === 'custom' ? [keys.custom, custom.key_encrypted] : [keys.generated, generated.key_encrypted];
      expect(row.key_hash).toBe(sha256(key));
      for (const [column, value] of Object.entries(row)) {
        expect(String(value), column).not.toContain(key);
        expect(String(value), column).not.toContain(sealed);
      }
    }

    // Each old key authenticates, with what it was allowed; a near miss does not.
    const me = await expectOk(await request('/api/test/api-key', `ApiKey ${keys.generated}`), apiKeyTestResponseSchema);
    expect(me).toMatchObject({ name: 'generated', basic_path: '/local/team', permissions: { text: true, file: false, mount: true } });
    const other = await expectOk(await request('/api/test/api-key', `ApiKey ${keys.custom}`), apiKeyTestResponseSchema);
    expect(other).toMatchObject({ name: 'custom', permissions: { text: false, file: false, mount: true } });
    await expectError(await request('/api/test/api-key', `ApiKey ${keys.custom.slice(0, -1)}2`), 401);

    // The admin's list shows them by prefix, never in full.
    const login = await app.request(
      '/api/admin/login',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }) },
      { incoming: { socket: { remoteAddress: DEFAULT_IP } } },
    );
    const { token } = await expectOk(login, loginResponseSchema);
    const res = await request('/api/admin/api-keys', `Bearer ${token}`);
    const text = await res.clone().text();
    const listed = await expectOk(res, apiKeyListSchema);
    expect(listed.map((key) => key.key_masked).sort()).toEqual(['Ab3dEf…', 'my_Cus…']);
    for (const secret of [keys.generated, keys.custom, generated.key_encrypted, custom.key_encrypted]) expect(text).not.toContain(secret);

    // SQLite: not in the database's files either (PostgreSQL's files are its server's: the rows are what we see).
    if (usingPostgres()) return;
    const files = readdirSync(old.dataDir).filter((name) => name.startsWith('clipstash.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = readFileSync(join(old.dataDir, name));
      for (const secret of [keys.generated, keys.custom, generated.key_encrypted, custom.key_encrypted]) {
        expect(bytes.includes(secret), `${name} holds ${secret}`).toBe(false);
      }
    }
  });

  it('stops before changing anything when a key has no SHA-256 (a database edited by hand)', async () => {
    const old = await databaseBefore007();
    cleanUps.push(old.drop);
    const broken = oldKey('broken', 'BrokenKey-123', { key_hash: 'not a hash' });
    await old.db.insertInto('api_keys').values([broken, oldKey('fine', 'FineKey-1234')]).execute();
    await old.db.destroy();

    await expect(old.reopen()).rejects.toThrow(/007-api-key-hashes.*"broken" have no SHA-256 hash.*Nothing was changed/s);

    const db = old.connect();
    cleanUps.push(() => db.destroy());
    const rows = await sql<{ name: string; key_encrypted: string }>`select name, key_encrypted from api_keys order by name`.execute(db);
    expect(rows.rows.map((row) => [row.name, oldSecrets.open(row.key_encrypted)])).toEqual([
      ['broken', 'BrokenKey-123'],
      ['fine', 'FineKey-1234'],
    ]);
  });
});
