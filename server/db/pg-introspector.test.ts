import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/fixtures/test-database';

describe.skipIf(!usingPostgres())('the PostgreSQL catalog as the server reads it', () => {
  const opened: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });
  const open = async () => {
    const database = await createTestDatabase();
    opened.push(database);
    return database;
  };

  it('lists the tables of its own schema only, with their columns', async () => {
    const [mine, other] = [await open(), await open()];
    await other.db.schema.createTable('not_mine').addColumn('id', 'integer').execute();
    const tables = await mine.db.introspection.getTables();
    const names = tables.map((table) => table.name);
    expect(names).toContain('pastes');
    expect(names).not.toContain('not_mine');
    expect(new Set(tables.map((table) => table.schema)).size).toBe(1);
    const slug = tables.find((table) => table.name === 'pastes')?.columns.find((column) => column.name === 'slug');
    expect(slug).toMatchObject({ isNullable: false, isAutoIncrementing: false });
  });

  it('migrates while other schemas of the database are dropped', async () => {
    const doomed = await Promise.all(Array.from({ length: 6 }, () => createTestDatabase()));
    const dropping = Promise.all(doomed.map((database) => database.close()));
    const migrated = await Promise.all(Array.from({ length: 6 }, () => open()));
    await dropping;
    expect(migrated).toHaveLength(6);
  });
});
