import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../tests/fixtures/test-app';
import type { AppDeps, Principal } from '../../context';
import { listFolder } from './listing';
import { normalizePath } from './paths';
import { callerOf } from './resolve';
import { makeFolder } from './writes';
import { clearMountCache } from './shared-directory-cache';

/** Two instances on one database: each has its own directory cache (keyed by its deps), the mounts are shared. */
describe('directory caches of several instances', () => {
  const t = useTestApp({ login: false });
  let a: AppDeps;
  let b: AppDeps;
  let storageRoot: string;
  const admin = callerOf({ kind: 'admin', adminId: 'admin', username: 'admin', tokenHash: 'x' } satisfies Principal);
  const names = async (deps: AppDeps, path: string) =>
    (await listFolder(deps, admin, normalizePath(path))).items.map((item) => item.name);
  /** Writes a file into the LOCAL storage behind every instance's back. */
  const plant = (inner: string) => {
    const file = join(storageRoot, ...inner.split('/'));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, 'x');
  };

  beforeAll(async () => {
    a = t.deps;
    b = { ...t.deps };
    const local = await t.db.selectFrom('storage_configs').select('id').where('storage_type', '=', 'LOCAL').executeTakeFirstOrThrow();
    storageRoot = join(t.dataDir, 'storage', local.id);
    plant('one/seen.txt');
    plant('two/seen.txt');
  });

  it('a write through one instance is seen at once through the other, which drops its listings of the mount', async () => {
    for (const deps of [a, b]) {
      expect(await names(deps, '/local/one')).toEqual(['seen.txt']);
      expect(await names(deps, '/local/two')).toEqual(['seen.txt']);
    }
    plant('two/behind.txt');
    await makeFolder(a, admin, normalizePath('/local/one/made-by-a'));

    expect(await names(b, '/local/one')).toEqual(['made-by-a', 'seen.txt']);
    // The writer dropped only what its write touched: its listing of `two` is still served.
    expect(await names(a, '/local/two')).toEqual(['seen.txt']);
    // The other instance cannot know what the write touched: it listed the mount again.
    expect(await names(b, '/local/two')).toEqual(['behind.txt', 'seen.txt']);
  });

  it('a cache clear through one instance empties the others', async () => {
    plant('two/later.txt');
    expect(await names(a, '/local/two')).toEqual(['seen.txt']);
    const mount = await t.db.selectFrom('mounts').select('id').where('mount_path', '=', '/local').executeTakeFirstOrThrow();
    await clearMountCache(b, mount.id);
    expect(await names(a, '/local/two')).toEqual(['behind.txt', 'later.txt', 'seen.txt']);
  });
});
