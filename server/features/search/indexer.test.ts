import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fsSearchResultSchema } from '../../../contract/search';
import { createApp } from '../../app';
import type { AppDeps } from '../../context';
import { openDatabase } from '../../db/database';
import { fileClient } from '../../../tests/fixtures/files';
import { fsClient } from '../../../tests/fixtures/fs';
import { searchClient } from '../../../tests/fixtures/search';
import { expectOk, FakeClock, MINUTE, useTestApp, type TestApp } from '../../../tests/fixtures/test-app';
import { usingPostgres } from '../../../tests/fixtures/test-database';
import { queueFolders } from './index-records';
import { Indexer, indexerOf } from './indexer';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const FOLDERS = 20;
const FILES_PER_FOLDER = 5;

/**
 * `tree/folder-N/file-N-M.txt` written straight into the built-in LOCAL storage (mounted at `/local`); answers the
 * mount and how many entries its index holds once built.
 */
async function treeOnDisk(t: TestApp & { token: string }): Promise<{ mountId: string; total: number }> {
  const local = await fileClient(t).builtinLocal(t.token);
  const mountId = (await fsClient(t, { token: t.token }).listOk('/local')).mountId ?? '';
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = join(t.dataDir, 'storage', local.id, 'tree', `folder-${folder}`);
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(join(dir, `file-${folder}-${file}.txt`), `${folder}/${file}`);
  }
  return { mountId, total: 1 + FOLDERS + FOLDERS * FILES_PER_FOLDER };
}

/** A rebuild of the mount read by an instance that dies after a few folders, one of them claimed and never finished. */
async function rebuildCutShort(t: TestApp & { token: string }, mountId: string): Promise<void> {
  // The app's own reader stays out of it.
  await indexerOf(t.deps).stop();
  await searchClient(t, { token: t.token }).rebuildOk(mountId);
  const dying = new Indexer(t.deps, 'instance-killed');
  expect(await dying.drain(3)).toBe(3);
  expect(await dying.claim()).toBeDefined();
}

describe('a mount index build', () => {
  const t = useTestApp();

  it('gives each queued folder to one reader at a time, however many claim at once', async () => {
    const mountId = (await fsClient(t, { token: t.token }).listOk('/local')).mountId ?? '';
    await indexerOf(t.deps).stop();
    const folders = Array.from({ length: 20 }, (_, index) => `claimed-${index}`);
    await queueFolders(t.db, mountId, folders, false, t.clock.now());
    const readers = [new Indexer(t.deps, 'reader-a'), new Indexer(t.deps, 'reader-b')];
    const claims = await Promise.all(Array.from({ length: 30 }, (_, index) => readers[index % 2]!.claim({ mountIds: [mountId] })));
    const claimed = claims.filter((row) => row !== undefined).map((row) => row.folder);
    expect(claimed.sort()).toEqual([...folders].sort());
    // Claimed rows are nobody else's until their claim lapses.
    expect(await readers[0]!.claim({ mountIds: [mountId] })).toBeUndefined();
    t.clock.advance(3 * MINUTE);
    expect(await readers[1]!.claim({ mountIds: [mountId] })).toBeDefined();
    await t.db.deleteFrom('fs_index_pending').where('mount_id', '=', mountId).execute();
  });

  it('killed halfway is finished by another app on the same database, with no entry twice', async () => {
    const search = searchClient(t, { token: t.token });
    const { mountId, total } = await treeOnDisk(t);
    await rebuildCutShort(t, mountId);
    const halfway = (await search.indexes()).find((index) => index.mountId === mountId);
    expect(halfway).toMatchObject({ state: 'building' });
    expect(halfway?.entries).toBeLessThan(total);
    expect(halfway?.foldersPending).toBeGreaterThan(0);

    // A second app opens the same database after the dead instance's claim lapsed, and goes on from the queue.
    const db = await openDatabase(t.dataDir, t.deps.config.databaseUrl);
    const clock = new FakeClock(new Date(t.clock.now().getTime() + 3 * MINUTE));
    const deps: AppDeps = { ...t.deps, db, now: clock.now };
    try {
      await indexerOf(deps).start();
      const done = await search.complete(mountId);
      expect(done).toMatchObject({ entries: total, foldersPending: 0, builtAt: clock.now().toISOString() });
      const counts = await t.db
        .selectFrom('fs_index_entries')
        .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.count<number>('path').distinct().as('paths')])
        .where('mount_id', '=', mountId)
        .executeTakeFirstOrThrow();
      expect({ rows: Number(counts.rows), paths: Number(counts.paths) }).toEqual({ rows: total, paths: total });

      const answer = await createApp(deps).request(`/api/admin/fs/search?q=${encodeURIComponent(`file-${FOLDERS - 1}-`)}`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      const found = await expectOk(answer, fsSearchResultSchema);
      expect(found.items.map((item) => item.path).sort()).toEqual(
        Array.from({ length: FILES_PER_FOLDER }, (_, file) => `/local/tree/folder-${FOLDERS - 1}/file-${FOLDERS - 1}-${file}.txt`),
      );
      expect(found.complete).toBe(true);
    } finally {
      await indexerOf(deps).stop();
      await db.destroy();
    }
  });
});

describe('the folder a dead reader held', () => {
  const t = useTestApp({ perTest: true, env: { JOB_LEASE_SECONDS: '2' } });

  it.skipIf(usingPostgres())('is read at once by the next start on SQLite (one process: the claim is its predecessor\'s)', async () => {
    const { mountId, total } = await treeOnDisk(t);
    await rebuildCutShort(t, mountId);
    // The next process opens the same file at the same moment: the dead claim has not lapsed.
    const db = await openDatabase(t.dataDir);
    const deps: AppDeps = { ...t.deps, db };
    try {
      await indexerOf(deps).start();
      expect(await searchClient(t, { token: t.token }).complete(mountId)).toMatchObject({ entries: total, foldersPending: 0 });
    } finally {
      await indexerOf(deps).stop();
      await db.destroy();
    }
  });

  it('is read by a waiting reader once the claim lapses, after the jobs\' lease (JOB_LEASE_SECONDS)', async () => {
    const search = searchClient(t, { token: t.token });
    const { mountId, total } = await treeOnDisk(t);
    await rebuildCutShort(t, mountId);
    const other = new Indexer(t.deps, 'instance-alive');
    try {
      other.kick();
      // All but the dead reader's folder (and what is below it) read, then the reader waits for that claim.
      await vi.waitFor(async () => expect((await search.indexes()).find((index) => index.mountId === mountId)?.foldersPending).toBe(1), {
        timeout: 10_000,
        interval: 20,
      });
      t.clock.advance(2_000);
      expect(await search.complete(mountId)).toMatchObject({ entries: total, foldersPending: 0 });
    } finally {
      await other.stop();
    }
  });
});
