/**
 * A mount index rebuild, its server process killed (SIGKILL) while the index is `building`: a new process on the
 * same database and storage goes on from the queue the build left in the database (`fs_index_pending`) and ends
 * with every file and folder of the disk in the index exactly once, and nothing left queued
 * (server/features/search/indexer.ts, docs/search.md "Building and reading"). On SQLite, and on PostgreSQL with the
 * LOCAL storage in a DATA_DIR declared shared.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loginResponseSchema } from '../../contract/auth';
import { envelopeSchema } from '../../contract/envelope';
import { fsSearchResultSchema, mountIndexListSchema, mountIndexSchema, type MountIndex } from '../../contract/search';
import { storageConfigListSchema } from '../../contract/storage';
import { openDatabase, type DB } from '../../server/db/database';
import { instanceClient, startInstance, type Instance } from '../fixtures/instances';
import { freshSchema, type FreshSchema } from '../fixtures/postgres';

const ADMIN_PASSWORD = 'an index cut short';
/** 30 folders of 12 subfolders of 8 files: 2,880 files, 391 folders with `tree` itself. */
const FOLDERS = 30;
const SUBFOLDERS = 12;
const FILES = 8;
const two = (n: number) => String(n).padStart(2, '0');

/** Every file and folder below `root`, as the index names them (inside the mount, `/` between names). */
function diskPaths(root: string, under: string): string[] {
  const entries = readdirSync(join(root, under), { recursive: true, withFileTypes: true });
  return [under, ...entries.map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))].sort();
}

describe.each(['sqlite', 'postgres'] as const)('kill -9 during a mount index rebuild (%s)', (dialect) => {
  let schema: FreshSchema | undefined;
  let dataDir: string;
  let env: Record<string, string>;
  let a: Instance;
  let b: Instance | undefined;
  let token: string;
  let mountId: string;
  let storageRoot: string;

  const { call, ok } = instanceClient(() => token);
  const indexOf = async (instance: Instance): Promise<MountIndex | undefined> =>
    (await ok(call(instance, '/api/admin/fs/index'), mountIndexListSchema)).find((index) => index.mountId === mountId);
  /** Reads the database the instances share, as they left it (the server's own connection, migrations already done). */
  const inDatabase = async <T>(read: (db: DB) => Promise<T>): Promise<T> => {
    const db = await openDatabase(dataDir, schema?.url);
    try {
      return await read(db);
    } finally {
      await db.destroy();
    }
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'clipstash-index-kill-'));
    env = { ENCRYPTION_KEY: randomBytes(32).toString('hex'), ADMIN_PASSWORD };
    if (dialect === 'postgres') {
      const cluster = inject('postgresUrl');
      if (!cluster) throw new Error('the integration project provides a PostgreSQL cluster');
      schema = await freshSchema(cluster);
      // LOCAL storage on PostgreSQL: the second process reads the same DATA_DIR, as a shared one would be. The
      // folder the killed process held is read again once its claim lapses, after the jobs' lease.
      env = { ...env, DATABASE_URL: schema.url, SHARED_DATA_DIR: '1', JOB_LEASE_SECONDS: '3' };
    }
    a = await startInstance(env, dataDir);
    const login = await fetch(`${a.origin}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    token = v.parse(envelopeSchema(loginResponseSchema), await login.json()).data.token;
    const local = (await ok(call(a, '/api/s3-configs'), storageConfigListSchema)).find((config) => config.storage_type === 'LOCAL' && config.is_default);
    const index = (await ok(call(a, '/api/admin/fs/index'), mountIndexListSchema)).find((entry) => entry.mountPath === '/local');
    if (!local || !index) throw new Error('a fresh install has its LOCAL storage mounted at /local');
    mountId = index.mountId;
    storageRoot = join(dataDir, 'storage', local.id);
    // The first build (of the empty mount, at the first start) is over before the files come.
    await vi.waitFor(async () => expect((await indexOf(a))?.state).toBe('complete'), { timeout: 20_000, interval: 50 });
    for (let folder = 0; folder < FOLDERS; folder++) {
      for (let sub = 0; sub < SUBFOLDERS; sub++) {
        const dir = join(storageRoot, 'tree', `dir-${two(folder)}`, `sub-${two(folder)}-${two(sub)}`);
        mkdirSync(dir, { recursive: true });
        for (let file = 0; file < FILES; file++) writeFileSync(join(dir, `doc-${two(folder)}-${two(sub)}-${two(file)}.txt`), `${folder}/${sub}/${file}`);
      }
    }
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is finished by the next process: every file and folder once, nothing left queued', async () => {
    const onDisk = diskPaths(storageRoot, 'tree');
    expect(onDisk).toHaveLength(1 + FOLDERS + FOLDERS * SUBFOLDERS + FOLDERS * SUBFOLDERS * FILES);

    await ok(call(a, '/api/admin/fs/index/rebuild', { json: { mountId } }), mountIndexSchema, 202);
    // Killed well into the walk: a third of the entries in, folders still queued.
    await vi.waitFor(
      async () => {
        const index = await indexOf(a);
        expect(index?.state).toBe('building');
        expect(index?.entries).toBeGreaterThan(onDisk.length / 3);
        expect(index?.foldersPending).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 5 },
    );
    await a.kill();

    // Cut short: the database says the build is still under way, part of the tree indexed and folders queued.
    const cut = await inDatabase(async (db) => ({
      state: (await db.selectFrom('fs_index_mounts').select('state').where('mount_id', '=', mountId).executeTakeFirst())?.state,
      entries: Number((await db.selectFrom('fs_index_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('mount_id', '=', mountId).executeTakeFirstOrThrow()).n),
      pending: Number((await db.selectFrom('fs_index_pending').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    }));
    expect(cut.state).toBe('building');
    expect(cut.entries).toBeLessThan(onDisk.length);
    expect(cut.pending).toBeGreaterThan(0);

    b = await startInstance(env, dataDir);
    const other = b;
    let done: MountIndex | undefined;
    await vi.waitFor(
      async () => {
        done = await indexOf(other);
        expect(done?.state, JSON.stringify(done)).toBe('complete');
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(done).toMatchObject({ entries: onDisk.length, foldersPending: 0 });

    const left = await inDatabase(async (db) => ({
      indexed: (await db.selectFrom('fs_index_entries').select('path').where('mount_id', '=', mountId).execute()).map((row) => row.path).sort(),
      pending: await db.selectFrom('fs_index_pending').selectAll().execute(),
    }));
    expect(left.indexed).toEqual(onDisk);
    expect(left.pending).toEqual([]);

    const search = async (q: string) => {
      const found = await ok(call(other, `/api/admin/fs/search?${new URLSearchParams({ q, limit: '200' })}`), fsSearchResultSchema);
      expect(found.complete).toBe(true);
      return found.items.map((item) => item.path).sort();
    };
    const last = two(FOLDERS - 1);
    expect(await search(`doc-${last}-${two(SUBFOLDERS - 1)}-`)).toEqual(
      Array.from({ length: FILES }, (_, file) => `/local/tree/dir-${last}/sub-${last}-${two(SUBFOLDERS - 1)}/doc-${last}-${two(SUBFOLDERS - 1)}-${two(file)}.txt`),
    );
    // Folders come with a trailing slash.
    expect(await search(`sub-00-`)).toEqual(Array.from({ length: SUBFOLDERS }, (_, sub) => `/local/tree/dir-00/sub-00-${two(sub)}/`));
    expect(await search(`dir-${last}`)).toEqual([`/local/tree/dir-${last}/`]);
  }, 60_000);
});
