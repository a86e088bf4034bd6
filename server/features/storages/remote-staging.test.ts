import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/fixtures/test-app';
import { multipartFolderOf } from '../../storage/local/uploads';
import { remoteStagingFolderOf } from '../../storage/registry';
import { sweepAsLeader } from '../upload-sweeper';
import { STAGED_UPLOAD_MAX_IDLE_MS } from './remote-staging';

describe('the sweep of staged remote uploads', () => {
  let t: TestApp;
  afterEach(() => t.close());

  /** A staged upload whose folder and part were last touched `idleMs` before the app's clock. */
  function stagedUpload(configId: string, uploadId: string, idleMs: number): string {
    const dir = join(multipartFolderOf(join(remoteStagingFolderOf(t.deps), configId)), uploadId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '1.part'), 'bytes');
    const at = new Date(t.deps.now().getTime() - idleMs);
    utimesSync(join(dir, '1.part'), at, at);
    utimesSync(dir, at, at);
    return dir;
  }

  it('removes uploads idle past the limit and the staging of configs that are gone, and keeps the rest', async () => {
    t = await createTestApp();
    const config = await t.deps.db.selectFrom('storage_configs').select('id').executeTakeFirstOrThrow();
    const abandoned = stagedUpload(config.id, 'a'.repeat(32), STAGED_UPLOAD_MAX_IDLE_MS + 60_000);
    const recent = stagedUpload(config.id, 'b'.repeat(32), STAGED_UPLOAD_MAX_IDLE_MS - 60_000);
    const orphan = stagedUpload('no-such-config', 'c'.repeat(32), 0);
    await sweepAsLeader(t.deps);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(join(remoteStagingFolderOf(t.deps), 'no-such-config'))).toBe(false);
    expect(existsSync(orphan)).toBe(false);
  });
});
