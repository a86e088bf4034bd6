/**
 * Storage failures of several kinds through the fs API and WebDAV: a folder the server may not write (LOCAL), a
 * bucket that does not exist, an endpoint that does not answer, a name the disk cannot hold. Each is answered
 * with a translated reason; no answer carries the server's paths, an errno code or the storage's own words.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storageConfigSchema } from '../../../contract/storage';
import { storageError } from '../fs/storage-errors';
import type { FailureReason } from '../../storage/reason';
import { ApiError } from '../../errors';
import { translate } from '../../i18n/messages';
import { davClient } from '../../../tests/fixtures/dav';
import { fileClient } from '../../../tests/fixtures/files';
import { fsClient, createMount } from '../../../tests/fixtures/fs';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const BODY = new Uint8Array(Buffer.from('some bytes\n'));
/** What no answer may hold: an errno code, the storage's own error codes, stack frames, a temp folder's path. */
const LEAKS = [/\bE[A-Z]{4,}\b/, /NoSuchBucket|InternalError|AccessDenied/, /\n\s+at /, /\/tmp\//];

/**
 * Makes a folder one the server may not write into: read-only for an ordinary user; root ignores modes, so there
 * the folder is made immutable. Answers the undo.
 */
function lockFolder(dir: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    return () => chmodSync(dir, 0o755);
  }
  execFileSync('chattr', ['+i', dir]);
  return () => execFileSync('chattr', ['-i', dir]);
}

describe('storage failures reach clients as reasons, never as paths or system messages', () => {
  const t = useTestApp();
  let s3: RunningS3rver;
  let fs: ReturnType<typeof fsClient>;
  let dav: ReturnType<typeof davClient>;
  let localRoot: string;

  /** Every answer body of the test, read as text and checked for what may not be in it. */
  async function textOf(res: Response): Promise<string> {
    const text = await res.text();
    expect(text).not.toContain(t.dataDir);
    expect(text).not.toContain(s3.directory);
    for (const leak of LEAKS) expect(text).not.toMatch(leak);
    return text;
  }
  /** A 502 envelope that gives `reason` as a code and, in words, at the end of its message. */
  async function expectReason(res: Response, reason: FailureReason) {
    await textOf(res.clone());
    const error = await expectError(res, 502);
    expect(error.data).toMatchObject({ reason });
    expect(error.message).toMatch(new RegExp(`: ${translate(`reason_${reason}`, 'en')}$`));
  }

  beforeAll(async () => {
    s3 = await startS3rver();
    fs = fsClient(t, { token: t.token });
    dav = davClient(t, ADMIN_USERNAME, ADMIN_PASSWORD);
    localRoot = join(t.dataDir, 'storage', (await fileClient(t).builtinLocal(t.token)).id);
  });
  afterAll(async () => {
    await s3.stop();
  });

  async function mountS3(at: string, extra: Record<string, unknown>) {
    const config = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3.configRequest(extra) }), storageConfigSchema, 201);
    await createMount(t, t.token, { name: at.slice(1), storage_type: 'S3', storage_config_id: config.id, mount_path: at, cache_ttl: 0 });
  }

  it('a LOCAL folder the server may not write: fs writes and WebDAV answer without the folder’s path', async () => {
    expect((await fs.upload('/local/locked', 'inside.txt', BODY)).status).toBe(201);
    const unlock = lockFolder(join(localRoot, 'locked'));
    try {
      await expectReason(await fs.upload('/local/locked', 'new.txt', BODY), 'permission_denied');
      await expectReason(await fs.mkdir('/local/locked/sub'), 'permission_denied');
      await expectReason(await fs.rename('/local/locked/inside.txt', '/local/locked/renamed.txt'), 'permission_denied');
      const reason = translate('reason_permission_denied', 'en');
      const zh = await t.request('/api/admin/fs/mkdir', { token: t.token, json: { path: '/local/locked/sub' }, headers: { 'accept-language': 'zh-CN' } });
      expect((JSON.parse(await textOf(zh)) as { message: string }).message).toContain(translate('reason_permission_denied', 'zh'));

      const removed = await fs.batchRemove(['/local/locked/inside.txt']);
      expect(await textOf(removed)).toContain(reason);
      const batch = await fs.uploadBatch('/local/locked', [{ relativePath: 'deep/file.txt', bytes: BODY }]);
      expect(await textOf(batch)).toContain(reason);

      for (const res of [await dav.put('/local/locked/dav.txt', BODY), await dav.mkcol('/local/locked/col'), await dav.remove('/local/locked/inside.txt')]) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        await textOf(res);
      }
    } finally {
      unlock();
    }
    expect(await fs.names('/local/locked', true)).toEqual(['inside.txt']);
  });

  it('a bucket that does not exist says so, through the fs API and WebDAV', async () => {
    await mountS3('/gone', { bucket_name: 'no-such-bucket' });
    await expectReason(await fs.list('/gone/', true), 'bucket_missing');
    await expectReason(await fs.upload('/gone', 'a.txt', BODY), 'bucket_missing');
    await expectReason(await fs.mkdir('/gone/folder'), 'bucket_missing');
    for (const res of [await dav.put('/gone/a.txt', BODY), await dav.propfind('/gone/'), await dav.get('/gone/a.txt')]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      await textOf(res);
    }
  });

  it('an endpoint that does not answer is "no connection", not the socket’s error', async () => {
    await mountS3('/nowhere', { endpoint_url: 'http://127.0.0.1:9' });
    await expectReason(await fs.list('/nowhere/', true), 'unreachable');
    expect((await dav.put('/nowhere/a.txt', BODY)).status).toBeGreaterThanOrEqual(500);
  });

  it('maps a real ENAMETOOLONG from the disk to its reason, its path left in the log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clipstash-leak-'));
    let thrown: unknown;
    try {
      openSync(join(dir, 'x'.repeat(300)), 'w');
    } catch (error) {
      thrown = error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((thrown as NodeJS.ErrnoException).code).toBe('ENAMETOOLONG');
    const answer = storageError('/local/x', thrown);
    expect(answer).toBeInstanceOf(ApiError);
    const { messageKey, params } = answer as ApiError;
    const message = translate(messageKey, 'en', params);
    expect(message).toContain(translate('reason_name_too_long', 'en'));
    expect(message).not.toContain(dir);
    for (const leak of LEAKS) expect(message).not.toMatch(leak);
  });
});
