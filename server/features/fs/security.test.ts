import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fileClient } from '../../../tests/fixtures/files';
import { davClient, rawDavUrl } from '../../../tests/fixtures/dav';
import { fsClient, HOSTILE_PATHS } from '../../../tests/fixtures/fs';
import { expectError, HOUR, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000 });

const SECRET = 'TOP-SECRET-BYTES';

/** Every fs call that takes a path, with `path` put where the call reads it. */
function callsWith(fs: ReturnType<typeof fsClient>, path: string, own: string) {
  return {
    list: () => fs.list(path),
    get: () => fs.get(path),
    download: () => fs.download(path),
    preview: () => fs.preview(path),
    thumbnail: () => fs.thumbnail(path),
    mkdir: () => fs.mkdir(path),
    upload: () => fs.upload(path, 'planted.txt', Buffer.from('planted')),
    'upload-batch': () => fs.uploadBatch(path, [{ relativePath: 'planted.txt', bytes: Buffer.from('planted') }]),
    'upload-batch relativePath': () => fs.uploadBatch(own, [{ relativePath: path.replace(/^\/local\/a\/?/, ''), bytes: Buffer.from('planted') }]),
    remove: () => fs.remove(path),
    'batch-remove': () => fs.batchRemove([path]),
    'rename from': () => fs.rename(path, `${own}/renamed-here`),
    'rename to': () => fs.rename(`${own}/own.txt`, path),
    update: () => fs.update(path, 'overwritten'),
    'file-link': () => fs.fileLink(path),
    'multipart/init': () => fs.post('multipart/init', { path, filename: 'x.bin', fileSize: 10 }),
    'multipart/part': () => fs.part({ path, uploadId: 'u', partNumber: 1, key: 'k' }, Buffer.from('x')),
    'multipart/complete': () => fs.post('multipart/complete', { path, uploadId: 'u', key: 'k', parts: [{ partNumber: 1, etag: 'e' }] }),
    'multipart/abort': () => fs.post('multipart/abort', { path, uploadId: 'u', key: 'k' }),
    presign: () => fs.post('presign', { path, fileName: 'x.bin', fileSize: 10 }),
    'presign/commit': () => fs.post('presign/commit', { targetPath: path, key: 'k', fileSize: 10 }),
    'copy from': () => fs.batchCopy([{ sourcePath: path, targetPath: `${own}/` }]),
    'copy to': () => fs.batchCopy([{ sourcePath: `${own}/own.txt`, targetPath: path }]),
    'copy-commit': () => fs.post('batch-copy-commit', { targetMountId: 'm', files: [{ targetPath: path, s3Path: 'k', fileSize: 1 }] }),
  };
}

describe('the mount file system keeps every path inside its mount and the key’s base path', () => {
  const t = useTestApp();
  let localRoot: string;
  let outside: string;

  beforeAll(async () => {
    localRoot = join(t.dataDir, 'storage', (await fileClient(t).builtinLocal(t.token)).id);
    const admin = fsClient(t, { token: t.token });
    await admin.uploadOk('/local/a', 'own.txt', Buffer.from('mine'));
    await admin.uploadOk('/local/ab', 'secret.txt', Buffer.from(SECRET));
    outside = join(t.dataDir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret-outside.txt'), SECRET);
    // Links planted in the LOCAL folder (by hand, or by another program) that lead out of it.
    symlinkSync(outside, join(localRoot, 'a', 'link'));
    symlinkSync(join(outside, 'secret-outside.txt'), join(localRoot, 'a', 'filelink'));
    symlinkSync(join(localRoot, 'ab'), join(localRoot, 'a', 'sibling-link'));
  });


  it(`refuses or contains each of ${HOSTILE_PATHS.length} hostile paths on every route, never a 500, never a byte outside`, async () => {
    expect(HOSTILE_PATHS.length).toBeGreaterThanOrEqual(40);
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/a' });
    const fs = fsClient(t, { apiKey: key.key });
    const surprises: string[] = [];
    for (const path of HOSTILE_PATHS) {
      for (const [route, call] of Object.entries(callsWith(fs, path, '/local/a'))) {
        const res = await call();
        const body = await res.text();
        if (res.status >= 500 || body.includes(SECRET)) surprises.push(`${route} ${JSON.stringify(path).slice(0, 60)} → ${res.status} ${body.slice(0, 120)}`);
      }
    }
    expect(surprises).toEqual([]);
    // Nothing written or removed outside the key's folder, inside or outside the storage.
    expect(readFileSync(join(localRoot, 'ab', 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readdirSync(join(localRoot, 'ab'))).toEqual(['secret.txt']);
    expect(readdirSync(outside)).toEqual(['secret-outside.txt']);
    expect(readFileSync(join(outside, 'secret-outside.txt'), 'utf8')).toBe(SECRET);
    expect(readdirSync(localRoot).filter((name) => !name.startsWith('.')).sort()).toEqual(['a', 'ab']);
  });

  it(`refuses or contains each hostile path through WebDAV too, for every method, never a 500, never a byte outside`, async () => {
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/a' });
    const dav = davClient(t, key.key, key.key);
    const lockinfo = '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const surprises: string[] = [];
    for (const path of HOSTILE_PATHS) {
      const url = rawDavUrl(path);
      const calls: [string, Record<string, string>, string?][] = [
        ['GET', {}],
        ['PUT', {}, 'planted'],
        ['DELETE', {}],
        ['MKCOL', {}],
        ['PROPFIND', { depth: '1' }],
        ['PROPPATCH', {}, '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>'],
        ['COPY', { destination: `http://localhost/dav/local/a/copied-here` }],
        ['MOVE', { destination: `http://localhost/dav/local/a/moved-here` }],
        ['LOCK', {}, lockinfo],
      ];
      for (const [method, headers, body] of calls) {
        const res = await dav.requestUrl(method, url, headers, body);
        const text = await res.text();
        if (res.status >= 500 || text.includes(SECRET)) surprises.push(`${method} ${JSON.stringify(path).slice(0, 60)} → ${res.status} ${text.slice(0, 120)}`);
      }
      for (const method of ['COPY', 'MOVE']) {
        const res = await dav.request(method, '/local/a/own.txt', { destination: `http://localhost${url}` });
        if (res.status >= 500 || res.status < 400) surprises.push(`${method} to ${JSON.stringify(path).slice(0, 60)} → ${res.status}`);
      }
    }
    expect(surprises).toEqual([]);
    expect(readFileSync(join(localRoot, 'ab', 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readdirSync(join(localRoot, 'ab'))).toEqual(['secret.txt']);
    expect(readdirSync(outside)).toEqual(['secret-outside.txt']);
    expect(readdirSync(localRoot).filter((name) => !name.startsWith('.')).sort()).toEqual(['a', 'ab']);
  });

  it('never follows a planted link, even for an admin: not listed, not readable, not writable through', async () => {
    const admin = fsClient(t, { token: t.token });
    expect(await admin.names('/local/a')).not.toEqual(expect.arrayContaining(['link']));
    expect((await admin.names('/local/a')).filter((name) => name.includes('link'))).toEqual([]);
    for (const path of ['/local/a/filelink', '/local/a/link/secret-outside.txt', '/local/a/link']) {
      const res = await admin.download(path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await res.text()).not.toContain(SECRET);
    }
    expect((await admin.upload('/local/a/link', 'through.txt', Buffer.from('x'))).status).toBe(400);
    expect(readdirSync(outside)).toEqual(['secret-outside.txt']);
  });

  it('tells a key "You can only access {path} and its subdirectories" (403), and lists only the branch above its base path', async () => {
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/a' });
    const fs = fsClient(t, { apiKey: key.key });
    await fs.uploadOk('/local/a', 'again.txt', Buffer.from('again'));
    const denied = await expectError(await fs.list('/local/ab'), 403);
    expect(denied.message).toBe('You can only access /local/a and its subdirectories');
    const zh = await expectError(await t.request('/api/user/fs/get?path=/local/ab/secret.txt', { apiKey: key.key, headers: { 'accept-language': 'zh-CN' } }), 403);
    expect(zh.message).toBe('您只能访问 /local/a 及其子目录');
    expect(await fs.names('/')).toEqual(['local']);
    expect(await fs.names('/local')).toEqual(['a']);
    expect(await fs.names('/local/a')).toContain('again.txt');
    await expectError(await fs.get('/local'), 403);
    await expectError(await fs.mkdir('/local/b'), 403);
  });

  it('answers every fs route 401 without credentials or with an expired key, 403 to a key without mount permission', async () => {
    const noMount = await t.createKey(t.token, { file_permission: true, text_permission: true });
    const expiring = await t.createKey(t.token, { mount_permission: true, expires_at: new Date(t.clock.now().getTime() + HOUR).toISOString() });
    const anonymous = fsClient(t, {}, 'user');
    const adminAsAnonymous = fsClient(t, {}, 'admin');
    const withoutPermission = fsClient(t, { apiKey: noMount.key });
    const keyOnAdminRoutes = fsClient(t, { apiKey: expiring.key }, 'admin');
    const check = async (client: ReturnType<typeof fsClient>, status: number) => {
      for (const [route, call] of Object.entries(callsWith(client, '/local/a/own.txt', '/local/a'))) {
        const res = await call();
        expect({ route, status: res.status }).toEqual({ route, status });
      }
      expect((await client.clearCache()).status).toBe(status);
    };
    await check(anonymous, 401);
    await check(adminAsAnonymous, 401);
    await check(withoutPermission, 403);
    await check(keyOnAdminRoutes, 403);
    t.clock.advance(2 * HOUR);
    const expired = await expectError(await fsClient(t, { apiKey: expiring.key }).list('/local'), 401);
    expect(expired.data.error).toBe('api_key_invalid');
    await check(fsClient(t, { apiKey: expiring.key }), 401);
  });
});
