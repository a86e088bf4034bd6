/**
 * A crafted CloudPaste database, merged into an install that has its built-in LOCAL storage, a file in its mount and
 * an API key: rows naming the install's own ids (its LOCAL config, its key) and rows whose storage paths climb out
 * or are absolute are refused and reported with their ids; nothing of the install becomes a share, no mount lands on
 * its config, CloudPaste's honest rows still come over, and neither a second run nor the server's share-area sweep
 * tries the refused rows again. Without --merge, a source naming the install's own rows does not pass for an earlier
 * run of itself. Runs on SQLite, and on PostgreSQL with TEST_DATABASE=postgres.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLOUDPASTE_DB, CLOUDPASTE_SECRET, cloudPasteS3rver } from '../../tests/fixtures/cloudpaste';
import { bytesOf, fileClient } from '../../tests/fixtures/files';
import { fsClient } from '../../tests/fixtures/fs';
import type { RunningS3rver } from '../../tests/fixtures/s3rver';
import { createdPasteSchema } from '../../contract/pastes';
import { ADMIN_PASSWORD, expectError, expectOk, useTestApp } from '../../tests/fixtures/test-app';
import { moveSharesIntoArea } from '../features/storages/share-area';
import { findStorageConfig } from '../features/storages/configs';
import { shareAreaKeyOf } from '../storage/keys';
import { driverFor } from '../storage/registry';
import type { Refused } from './import-cloudpaste/report';
import { ImportRefused, importCloudPaste } from './import-cloudpaste/runner';
import { readCloudPaste } from './import-cloudpaste/source';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** The fixture's own S3 config: rows on it are refused for their storage paths alone. */
const SOURCE_CONFIG = '34698181-1671-4fd2-9ca5-79a07ec0f96e';
const MOUNT_FILE_KEY = 'private/salary.txt';
const MOUNT_FILE = Buffer.from('the install’s own mount file');
const BAD_PATHS = ['../x', '/etc/passwd', 'a/../../b', 'a\\..\\b', 'a/\0b', '.clipstash-expenses/receipt.pdf'];

interface Install {
  localConfigId: string;
  keyId: string;
}

/** The fixture's database with the hostile rows added: a copy in `dir`, written as a CloudPaste install would. */
function writeHostileSource(dir: string, install: Install): string {
  const file = join(dir, 'hostile.db');
  copyFileSync(CLOUDPASTE_DB, file);
  const db = new SQLite(file);
  try {
    // CloudPaste's foreign keys would refuse rows naming configs it does not hold; a crafted file has none.
    db.pragma('foreign_keys = OFF');
    db.prepare(
      `insert into s3_configs (id, name, provider_type, endpoint_url, bucket_name, access_key_id, secret_access_key)
       values (?, 'Takeover', 'Other', 'http://127.0.0.1:1', 'cloudpaste', 'takeover-id', 'takeover-secret')`,
    ).run(install.localConfigId);
    db.prepare(
      `insert into storage_mounts (id, name, storage_type, storage_config_id, mount_path, created_by)
       values ('hostile-mount', 'Grab', 'S3', ?, '/grab', 'admin')`,
    ).run(install.localConfigId);
    const file = db.prepare(
      `insert into files (id, filename, storage_path, mimetype, size, s3_config_id, slug, created_by)
       values (?, 'x.txt', ?, 'text/plain', 1, ?, ?, 'admin')`,
    );
    file.run('hostile-grab', MOUNT_FILE_KEY, install.localConfigId, 'grab-salary');
    BAD_PATHS.forEach((path, i) => file.run(`hostile-path-${i}`, path, SOURCE_CONFIG, `bad-path-${i}`));
    db.prepare(`insert into api_keys (id, name, key, text_permission, expires_at) values (?, 'hijack', 'hijack-secret-key', 1, '9999-12-31 23:59:59')`).run(
      install.keyId,
    );
    // Text from the source is printed: an escape sequence in it must not reach the terminal as one.
    db.prepare(`insert into system_settings (key, value) values (?, '1')`).run('\u001b[2Jcleared');
    db.prepare(`insert into pastes (id, slug, content, created_by) values ('hostile-paste', 'planted', 'planted on the install key', ?)`).run(
      `apikey:${install.keyId}`,
    );
  } finally {
    db.close();
  }
  return file;
}

/** Every refusal the hostile rows must get, in the order the import meets them. */
const expectedRefusals = (install: Install): Refused[] => [
  { kind: 'storage configs', id: install.localConfigId, item: 'Takeover', reason: expect.stringContaining("storage config of the install's own") as string },
  { kind: 'mounts', id: 'hostile-mount', item: '/grab', reason: expect.stringContaining('not one this import brings') as string },
  { kind: 'API keys', id: install.keyId, item: 'hijack', reason: expect.stringContaining("API key of the install's own") as string },
  { kind: 'pastes', id: 'hostile-paste', item: 'planted', reason: expect.stringContaining('owner is not an API key this import brings') as string },
  { kind: 'file shares', id: 'hostile-grab', item: 'grab-salary', reason: expect.stringContaining('not one this import brings') as string },
  ...BAD_PATHS.map((path, i) => ({
    kind: 'file shares' as const,
    id: `hostile-path-${i}`,
    item: `bad-path-${i}`,
    reason: expect.stringContaining(JSON.stringify(path)) as string,
  })),
];

describe('merging a hostile CloudPaste database', () => {
  const t = useTestApp({ start: new Date('2026-11-27T12:00:00.000Z') });
  let s3: RunningS3rver;
  let dir: string;
  let source: string;
  let install: Install;
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (message: string) => void warnings.push(message) };
  const run = () =>
    importCloudPaste(t.deps, readCloudPaste(source), { secret: CLOUDPASTE_SECRET, merge: true, dryRun: false, s3Endpoint: s3.endpoint }, log);
  const localDriver = async () => driverFor(t.deps, (await findStorageConfig(t.db, install.localConfigId)) ?? expect.fail('no LOCAL config'));

  beforeAll(async () => {
    s3 = await cloudPasteS3rver();
    dir = mkdtempSync(join(tmpdir(), 'clipstash-hostile-'));
    await fsClient(t, { token: t.token }).uploadOk('/local/private', 'salary.txt', MOUNT_FILE);
    const local = await t.db.selectFrom('storage_configs').select('id').where('storage_type', '=', 'LOCAL').executeTakeFirstOrThrow();
    install = { localConfigId: local.id, keyId: (await t.createKey(t.token, { text_permission: true })).id };
    source = writeHostileSource(dir, install);
  });
  afterAll(async () => {
    await s3?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('aims the crafted share at a real object of the install’s mount', async () => {
    // Without this the refusal below could pass by pointing at nothing.
    expect((await (await localDriver()).head(MOUNT_FILE_KEY))?.size).toBe(MOUNT_FILE.length);
  });

  it('refuses and reports every hostile row, and imports CloudPaste’s own', async () => {
    const report = await run();
    expect(report.refused).toEqual(expectedRefusals(install));
    expect(Object.fromEntries(report.imported)).toMatchObject({ 'storage configs': 1, mounts: 1, pastes: 6, 'file shares': 3 });
    expect(report.sharesMoved).toBe(3);
    expect(report.sharesNotMoved).toBe(0);
    expect(warnings).toEqual([]);
    const lines = report.lines(false).join('\n');
    expect(lines).toContain('file shares: imported 3, 1 skipped, 7 refused');
    expect(lines).toContain(`file shares "bad-path-3" (id "hostile-path-3"): its storage path "a\\\\..\\\\b" is not a safe key`);
    expect(lines).toContain('settings \\u001b[2Jcleared: Clipstash has no such setting');
    expect(report.lines(false).filter((line) => /\p{Cc}/u.test(line))).toEqual([]);
  });

  it('makes nothing of the install a share and mounts nothing on its config', async () => {
    expect(await t.db.selectFrom('files').select('slug').where('storage_config_id', '=', install.localConfigId).execute()).toEqual([]);
    expect((await fileClient(t).download('grab-salary')).status).toBe(404);
    const onLocal = await t.db.selectFrom('mounts').select('mount_path').where('storage_config_id', '=', install.localConfigId).execute();
    expect(onLocal).toEqual([{ mount_path: '/local' }]);
    expect(await t.db.selectFrom('mounts').select('id').where('mount_path', '=', '/grab').execute()).toEqual([]);
    expect(await t.db.selectFrom('storage_configs').select('name').where('id', '=', install.localConfigId).executeTakeFirstOrThrow()).not.toEqual({
      name: 'Takeover',
    });

    // The mount's file is where it was, whole, and not in the share area.
    const driver = await localDriver();
    expect(await driver.head(shareAreaKeyOf(MOUNT_FILE_KEY))).toBeUndefined();
    expect(await bytesOf(await fsClient(t, { token: t.token }).download('/local/private/salary.txt'))).toEqual(MOUNT_FILE);
  });

  it('leaves the install’s API key its own', async () => {
    const key = await t.db.selectFrom('api_keys').select(['name']).where('id', '=', install.keyId).executeTakeFirstOrThrow();
    expect(key.name).not.toBe('hijack');
    expect(await t.db.selectFrom('pastes').select('id').where('created_by', '=', `apikey:${install.keyId}`).execute()).toEqual([]);
    expect((await t.request('/api/test/api-key', { apiKey: 'hijack-secret-key' })).status).toBe(401);
  });

  it('refuses the same rows again on a second run and never tries to move them', async () => {
    const again = await run();
    expect(again.refused).toEqual(expectedRefusals(install));
    expect([...again.imported.values()].every((n) => n === 0)).toBe(true);
    expect(again.already.get('file shares')).toBe(3);
    expect(again.sharesMoved).toBe(0);
    expect(again.sharesNotMoved).toBe(0);
    // The server's sweep finds nothing left to move or to try again.
    expect(await moveSharesIntoArea(t.deps, log)).toEqual({ moved: 0, failed: 0 });
    expect(warnings).toEqual([]);
  });

  it('prints the refusals with their ids and exits 2 from the command line', async () => {
    const cli = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/tools/import-cloudpaste.ts', '--from', source, '--secret', CLOUDPASTE_SECRET, '--dry-run'],
      { env: { ...process.env, DATA_DIR: join(dir, 'cli-data'), DATABASE_URL: '' } },
    );
    const failed = await cli.then(
      () => expect.fail('the import exited 0'),
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failed.code).toBe(2);
    expect(failed.stdout).toContain('Refused (never imported');
    expect(failed.stdout).toContain('file shares "bad-path-0" (id "hostile-path-0"): its storage path "../x" is not a safe key');
    expect(failed.stdout).toContain('"bad-path-1" (id "hostile-path-1"): its storage path "/etc/passwd"');
    expect(failed.stderr).toContain('6 row(s) refused');
  });
});

describe('a CloudPaste database naming the install’s own rows, without --merge', () => {
  const t = useTestApp({ login: false });
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'clipstash-hostile-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is refused as an install with data of its own, and its admin keeps the password', async () => {
    const token = await t.login();
    const own = await expectOk(await t.request('/api/paste', { token, json: { content: 'mine' } }), createdPasteSchema, 201);
    const file = join(dir, 'same-ids.db');
    copyFileSync(CLOUDPASTE_DB, file);
    const db = new SQLite(file);
    db.prepare(`update pastes set id = ? where slug = 'notes-plain'`).run(own.id);
    db.close();

    // Were the paste taken for an earlier run's, the import would go on as into an empty install and give the
    // install's admin CloudPaste's password.
    const run = importCloudPaste(t.deps, readCloudPaste(file), { secret: CLOUDPASTE_SECRET, merge: false, dryRun: false }, { info: () => undefined, warn: () => undefined });
    await expect(run).rejects.toThrow(ImportRefused);
    await t.login('admin', ADMIN_PASSWORD);
    await expectError(await t.request('/api/admin/login', { json: { username: 'admin', password: 'admin123' } }), 401);
  });
});
