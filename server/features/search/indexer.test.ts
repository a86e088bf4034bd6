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
import { expectOk, FakeClock, MINUTE, useTestApp } from '../../../tests/fixtures/test-app';
import { queueFolders } from './index-records';
import { Indexer, indexerOf } from './indexer';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const FOLDERS = 20;
const FILES_PER_FOLDER = 5;

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
    const fs = fsClient(t, { token: t.token });
    const search = searchClient(t, { token: t.token });
    const local = await fileClient(t).builtinLocal(t.token);
    const mountId = (await fs.listOk('/local')).mountId ?? '';
    for (let folder = 0; folder < FOLDERS; folder++) {
      const dir = join(t.dataDir, 'storage', local.id, 'tree', `folder-${folder}`);
      mkdirSync(dir, { recursive: true });
      for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(join(dir, `file-${folder}-${file}.txt`), `${folder}/${file}`);
    }
    const total = 1 + FOLDERS + FOLDERS * FILES_PER_FOLDER;

    // This app's own reader stays out of it: the build is read by an instance that dies after a few folders, one
    // of them claimed and never finished.
    await indexerOf(t.deps).stop();
    await search.rebuildOk(mountId);
    const dying = new Indexer(t.deps, 'instance-killed');
    expect(await dying.drain(3)).toBe(3);
    expect(await dying.claim()).toBeDefined();
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
