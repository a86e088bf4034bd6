import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectSqlite, keptSelect } from './dialect';

// Kysely<any>: the table here is the test's own, not the app's schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

describe('SQLite statements kept between queries', () => {
  let dir: string;
  let db: AnyDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clipstash-dialect-'));
    db = connectSqlite(join(dir, 'kept.db')) as AnyDb;
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await db.insertInto('notes').values([{ id: 1, text: 'one' }, { id: 2, text: 'two' }]).execute();
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const byId = (id: number) => db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst();

  it('answers each run of the same query with its own parameters', async () => {
    expect(await byId(1)).toEqual({ id: 1, text: 'one' });
    expect(await byId(2)).toEqual({ id: 2, text: 'two' });
    expect(await byId(3)).toBeUndefined();
  });

  it('sees a column added after the query was first run', async () => {
    expect(await byId(1)).toEqual({ id: 1, text: 'one' });
    await sql`alter table notes add column color text not null default 'red'`.execute(db);
    expect(await byId(1)).toEqual({ id: 1, text: 'one', color: 'red' });
  });

  it('runs more distinct queries than it keeps, and the first again after them', async () => {
    const ids = Array.from({ length: 600 }, (_, i) => i + 1);
    for (const count of ids) {
      const rows = await db.selectFrom('notes').select('id').where('id', 'in', ids.slice(0, count)).execute();
      expect(rows).toHaveLength(Math.min(count, 2));
    }
    expect(await db.selectFrom('notes').select('id').where('id', 'in', [1]).execute()).toEqual([{ id: 1 }]);
  });
});

describe('keptSelect on SQLite', () => {
  let dir: string;
  let db: AnyDb;
  let noteById: (id: number) => Promise<unknown>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clipstash-dialect-'));
    db = connectSqlite(join(dir, 'kept.db')) as AnyDb;
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await db.insertInto('notes').values([{ id: 1, text: 'one' }, { id: 2, text: 'two' }]).execute();
    const lookup = keptSelect(db, db.selectFrom('notes').selectAll().where('id', '=', 0));
    noteById = (id) => lookup([id]);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the first row of each run with its own parameters, named by its columns', async () => {
    expect(await noteById(2)).toEqual({ id: 2, text: 'two' });
    expect(await noteById(1)).toEqual({ id: 1, text: 'one' });
    expect(await noteById(3)).toBeUndefined();
  });

  it('sees a column added after it was first run', async () => {
    expect(await noteById(1)).toEqual({ id: 1, text: 'one' });
    await sql`alter table notes add column color text not null default 'red'`.execute(db);
    expect(await noteById(1)).toEqual({ id: 1, text: 'one', color: 'red' });
  });

  it('rejects, as a query through Kysely does, when its statement fails', async () => {
    await sql`drop table notes`.execute(db);
    await expect(noteById(1)).rejects.toThrow(/no such table/);
  });

  it('never sees what an open transaction wrote: it waits for the transaction to end', async () => {
    let committed: Promise<unknown> = Promise.resolve();
    let rolledBack: Promise<unknown> = Promise.resolve();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 3, text: 'draft' }).execute();
      committed = noteById(3);
      await trx.updateTable('notes').set({ text: 'final' }).where('id', '=', 3).execute();
    });
    expect(await committed).toEqual({ id: 3, text: 'final' });

    const failure = new Error('rolled back');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ id: 4, text: 'never' }).execute();
        rolledBack = noteById(4);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await rolledBack).toBeUndefined();
  });
});
