import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/fixtures/test-database';
import { readConfig } from '../../config';
import type { DB } from '../../db/database';
import { verifyPassword } from '../../security/passwords';
import { sha256 } from '../../security/tokens';
import { CLOUDPASTE_HASH_PREFIX, ensureAdmin, verifyAdminPassword } from './admins';

describe('ensureAdmin', () => {
  let database: TestDatabase;
  let dir: string;
  let db: DB;
  const at = new Date('2030-01-01T00:00:00.000Z');
  beforeEach(async () => {
    database = await createTestDatabase();
    ({ db, dataDir: dir } = database);
  });
  afterEach(() => database.close());

  it('creates the configured admin once, with a hashed password, and returns nothing to print', async () => {
    const config = readConfig({ DATA_DIR: dir, ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: 'configured pw' });
    expect(await ensureAdmin(db, config, at)).toBeUndefined();
    const admins = await db.selectFrom('admins').selectAll().execute();
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ username: 'owner', created_at: at.toISOString(), updated_at: at.toISOString() });
    expect(admins[0]?.password_hash).not.toContain('configured pw');
    expect(await verifyPassword('configured pw', admins[0]?.password_hash ?? '')).toBe(true);

    // A second start (even with other settings) keeps the existing admin.
    const other = readConfig({ DATA_DIR: dir, ADMIN_USERNAME: 'someone-else', ADMIN_PASSWORD: 'another pw' });
    expect(await ensureAdmin(db, other, at)).toBeUndefined();
    expect(await db.selectFrom('admins').select('username').execute()).toEqual([{ username: 'owner' }]);
  });

  it('generates a password when none is configured and returns it once', async () => {
    const config = readConfig({ DATA_DIR: dir });
    const generated = await ensureAdmin(db, config, at);
    expect(generated).toMatch(/^[A-Za-z0-9]{20}$/);
    const admin = await db.selectFrom('admins').selectAll().executeTakeFirstOrThrow();
    expect(admin.username).toBe('admin');
    expect(await verifyPassword(generated ?? '', admin.password_hash)).toBe(true);
    expect(await ensureAdmin(db, config, at)).toBeUndefined();
  });
});

describe('verifyAdminPassword', () => {
  let database: TestDatabase;
  const at = new Date('2030-01-01T00:00:00.000Z');
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(() => database.close());

  it('accepts a CloudPaste SHA-256 once and replaces it by scrypt; a wrong password changes nothing', async () => {
    const { db } = database;
    const legacy = `${CLOUDPASTE_HASH_PREFIX}${sha256('admin123')}`;
    await db.insertInto('admins').values({ id: 'a1', username: 'admin', password_hash: legacy, created_at: at.toISOString(), updated_at: at.toISOString() }).execute();
    const row = () => db.selectFrom('admins').select(['id', 'password_hash']).executeTakeFirstOrThrow();

    expect(await verifyAdminPassword(db, await row(), 'admin124', at)).toBe(false);
    expect(await verifyAdminPassword(db, await row(), sha256('admin123'), at)).toBe(false);
    expect((await row()).password_hash).toBe(legacy);

    expect(await verifyAdminPassword(db, await row(), 'admin123', at)).toBe(true);
    const rehashed = (await row()).password_hash;
    expect(rehashed).toMatch(/^scrypt\$/);
    expect(await verifyPassword('admin123', rehashed)).toBe(true);
    expect(await verifyAdminPassword(db, await row(), 'admin123', at)).toBe(true);
    expect(await verifyAdminPassword(db, undefined, 'admin123', at)).toBe(false);
  });
});
