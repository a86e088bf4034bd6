/**
 * The import's guards and sources: a dry run writes nothing, an install with data of its own is refused unless the
 * import merges (and then keeps what is its own), a wrong secret stops it before anything is written, a D1 SQL
 * export reads as the database does, and the command line says what it would do.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createdPasteSchema } from '../../contract/pastes';
import { bucketKeys, CLOUDPASTE_DB, CLOUDPASTE_SECRET, cloudPasteObjects, cloudPasteS3rver, writeD1Export } from '../../tests/fixtures/cloudpaste';
import type { RunningS3rver } from '../../tests/fixtures/s3rver';
import { ADMIN_PASSWORD, expectOk, useTestApp } from '../../tests/fixtures/test-app';
import type { ImportOptions } from './import-cloudpaste/context';
import { ImportRefused, importCloudPaste } from './import-cloudpaste/runner';
import { SecretMismatch } from './import-cloudpaste/secrets';
import { readCloudPaste } from './import-cloudpaste/source';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const quiet = { info: () => undefined, warn: () => undefined };
const TABLES = ['pastes', 'files', 'api_keys', 'mounts', 'storage_configs', 'admins', 'admin_tokens', 'system_settings'] as const;

describe('import-cloudpaste guards', () => {
  const t = useTestApp({ login: false, start: new Date('2026-11-27T12:00:00.000Z'), perTest: true });
  let s3: RunningS3rver;
  let dir: string;
  const options = (extra: Partial<ImportOptions> = {}): ImportOptions => ({
    secret: CLOUDPASTE_SECRET,
    merge: false,
    dryRun: false,
    s3Endpoint: s3.endpoint,
    ...extra,
  });
  const run = (extra: Partial<ImportOptions> = {}) => importCloudPaste(t.deps, readCloudPaste(CLOUDPASTE_DB), options(extra), quiet);
  const snapshot = async () => Promise.all(TABLES.map((table) => t.db.selectFrom(table).selectAll().execute()));

  beforeAll(async () => {
    s3 = await cloudPasteS3rver();
    dir = mkdtempSync(join(tmpdir(), 'clipstash-cloudpaste-'));
  });
  afterAll(async () => {
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports what a dry run would do and writes nothing', async () => {
    await t.login();
    const before = await snapshot();
    const report = await run({ dryRun: true });
    expect(report.imported.get('pastes')).toBe(6);
    expect(report.imported.get('admin')).toBe(1);
    expect(report.sharesMoved).toBe(3);
    expect(await snapshot()).toEqual(before);
    expect(await bucketKeys(s3)).toEqual([...cloudPasteObjects().keys()].sort());
    await t.login('admin', ADMIN_PASSWORD);
  });

  it('refuses an install with data of its own unless merging, and then keeps what is its own', async () => {
    const token = await t.login();
    const own = await expectOk(await t.request('/api/paste', { token, json: { content: 'mine', slug: 'notes-plain' } }), createdPasteSchema, 201);
    const before = await snapshot();
    await expect(run()).rejects.toThrow(ImportRefused);
    await expect(run()).rejects.toThrow(/1 pastes/);
    expect(await snapshot()).toEqual(before);

    const report = await run({ merge: true });
    expect(report.imported.get('pastes')).toBe(5);
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { kind: 'pastes', item: 'notes-plain', reason: 'the install has a share with that slug' },
        { kind: 'admin', item: 'admin', reason: expect.stringContaining('keeps its own password') },
      ]),
    );
    expect(await t.db.selectFrom('pastes').select('content').where('id', '=', own.id).executeTakeFirstOrThrow()).toEqual({ content: 'mine' });
    await t.login('admin', ADMIN_PASSWORD);
    // The install's default storage stays its own; CloudPaste's comes in beside it.
    const defaults = await t.db.selectFrom('storage_configs').select('storage_type').where('is_default', '=', 1).execute();
    expect(defaults).toEqual([{ storage_type: 'LOCAL' }]);
    // Merging again finds everything there.
    const again = await run({ merge: true });
    expect([...again.imported.values()].every((n) => n === 0)).toBe(true);
  });

  it('stops at a wrong secret before writing anything', async () => {
    const before = await snapshot();
    await expect(run({ secret: 'not-the-secret' })).rejects.toThrow(SecretMismatch);
    expect(await snapshot()).toEqual(before);
  });

  it('reads a D1 SQL export as it reads the database', () => {
    const file = join(dir, 'd1-export.sql');
    writeD1Export(file);
    expect(readCloudPaste(file)).toEqual(readCloudPaste(CLOUDPASTE_DB));
  });

  it('runs from the command line on the install’s own DATA_DIR', async () => {
    const file = join(dir, 'cli-export.sql');
    writeD1Export(file);
    const dataDir = join(dir, 'data');
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/tools/import-cloudpaste.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
    const dry = await cli('--from', file, '--secret', CLOUDPASTE_SECRET, '--dry-run');
    expect(dry.stdout).toContain('pastes: would import 6');
    expect(dry.stdout).toContain('file shares M-e337b: uploaded through a mount');
    await expect(cli('--from', file)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--secret') });
    await expect(cli('--from', file, '--secret', 'wrong')).rejects.toMatchObject({ stderr: expect.stringContaining('ENCRYPTION_SECRET') });
  });

  it('knows an earlier run’s storage config in a later dry run, by the install’s own key', async () => {
    const own = await cloudPasteS3rver();
    try {
      const dataDir = join(dir, 'rerun-data');
      const cli = (...args: string[]) =>
        promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'server/tools/import-cloudpaste.ts', '--from', CLOUDPASTE_DB, '--secret', CLOUDPASTE_SECRET, '--s3-endpoint', own.endpoint, ...args],
          { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
        );
      expect((await cli()).stdout).toContain('storage configs: imported 1');
      // Sealed with the install's key: a throwaway key would not open it, and the config would look foreign.
      const dry = await cli('--dry-run');
      expect(dry.stdout).toContain('storage configs: would import 0, 1 imported before');
      expect(dry.stdout).toContain('file shares: would import 0, 3 imported before');
      expect(dry.stdout).not.toContain('Refused');
    } finally {
      await own.stop();
    }
  });
});
