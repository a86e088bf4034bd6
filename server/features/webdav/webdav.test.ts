import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { davClient, parseMultistatus } from '../../../tests/fixtures/dav';
import { fsClient } from '../../../tests/fixtures/fs';
import { ADMIN_PASSWORD, ADMIN_USERNAME, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 60_000 });

const NAMES = ['a b.txt', 'hash#1.txt', '100%.txt', '中文 文件.txt', 'emoji 😀.txt', 'q?x.txt'];

describe('WebDAV at /dav', () => {
  const t = useTestApp();
  let dav: ReturnType<typeof davClient>;

  beforeAll(async () => {
    dav = davClient(t, ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  it('asks for credentials: 401 with a Basic challenge without them or with a wrong password; OPTIONS says DAV 1, 2', async () => {
    for (const client of [davClient(t), davClient(t, ADMIN_USERNAME, 'wrong password'), davClient(t, 'nobody', ADMIN_PASSWORD)]) {
      const res = await client.propfind('/', '0');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="Clipstash"/);
    }
    const options = await davClient(t).request('OPTIONS', '/local/');
    expect(options.status).toBe(200);
    expect(options.headers.get('dav')).toBe('1, 2');
    expect(options.headers.get('allow')).toContain('PROPFIND');
  });

  it('lists the mounts at /dav/ and names every file with its href percent-encoded, its size, type, ETag and date', async () => {
    expect((await dav.list('/')).map((r) => r.href)).toEqual(['/dav/', '/dav/local/']);
    expect((await dav.mkcol('/local/names')).status).toBe(201);
    for (const [index, name] of NAMES.entries()) expect((await dav.put(`/local/names/${name}`, 'x'.repeat(index + 1))).status).toBe(201);
    const listing = await dav.list('/local/names/');
    expect(listing[0]?.href).toBe('/dav/local/names/');
    const files = listing.slice(1).sort((a, b) => a.href.localeCompare(b.href));
    const expected = NAMES.map((name, index) => ({ href: `/dav/local/names/${encodeURIComponent(name)}`, size: String(index + 1) })).sort((a, b) => a.href.localeCompare(b.href));
    expect(files.map((r) => ({ href: r.href, size: r.found.get('{DAV:}getcontentlength')?.textContent }))).toEqual(expected);
    for (const file of files) {
      expect(decodeURIComponent(file.href.split('/').pop() ?? '')).toBe(file.found.get('{DAV:}displayname')?.textContent);
      expect(file.found.get('{DAV:}getetag')?.textContent).toMatch(/^"[^"]+"$/);
      expect(new Date(file.found.get('{DAV:}getlastmodified')?.textContent ?? '').getTime()).not.toBeNaN();
      expect(file.found.get('{DAV:}resourcetype')?.childNodes.length).toBe(0);
    }
    // The name comes back through GET as it went in, and the ETag is the one PROPFIND gave.
    const res = await dav.get('/local/names/中文 文件.txt');
    expect(await res.text()).toBe('xxxx');
    expect(`${res.headers.get('etag')}`).toBe(files.find((f) => f.href.includes('%E4%B8%AD'))?.found.get('{DAV:}getetag')?.textContent);
  });

  it('answers named properties found and missing, refuses Depth infinity with propfind-finite-depth, and malformed XML with 400', async () => {
    await dav.put('/local/props.txt', 'hello');
    const named = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop><D:getcontentlength/><Z:nothing/></D:prop></D:propfind>`;
    const [one] = parseMultistatus(await (await dav.propfind('/local/props.txt', '0', named)).text());
    expect(one?.found.get('{DAV:}getcontentlength')?.textContent).toBe('5');
    expect(one?.missing).toEqual(['{urn:z}nothing']);
    const infinite = await dav.propfind('/local/', 'infinity');
    expect(infinite.status).toBe(403);
    expect(await infinite.text()).toContain('propfind-finite-depth');
    expect((await dav.propfind('/local/', '1', '<D:propfind xmlns:D="DAV:"><D:prop>')).status).toBe(400);
    expect((await dav.propfind('/local/missing.txt', '0')).status).toBe(404);
  });

  it('keeps dead properties and moves and copies them with their resource, across mounts too', async () => {
    const second = await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'second disk' } });
    const config = (await second.json()) as { data: { id: string } };
    await t.request('/api/admin/mounts', { token: t.token, json: { name: 'Second', storage_type: 'LOCAL', storage_config_id: config.data.id, mount_path: '/second' } });
    await dav.put('/local/tagged.txt', 'tagged');
    const patch = `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:colour>blue <Z:shade>dark</Z:shade></Z:colour></D:prop></D:set></D:propertyupdate>`;
    expect((await dav.request('PROPPATCH', '/local/tagged.txt', { 'content-type': 'application/xml' }, patch)).status).toBe(207);
    const colourOf = async (path: string) => {
      const body = `<D:propfind xmlns:D="DAV:"><D:prop><Z:colour xmlns:Z="urn:z"/></D:prop></D:propfind>`;
      const [response] = parseMultistatus(await (await dav.propfind(path, '0', body)).text());
      return response?.found.get('{urn:z}colour')?.textContent;
    };
    expect(await colourOf('/local/tagged.txt')).toBe('blue dark');
    expect((await dav.copy('/local/tagged.txt', '/second/copied.txt')).status).toBe(201);
    expect((await dav.move('/local/tagged.txt', '/second/moved.txt')).status).toBe(201);
    expect(await colourOf('/second/copied.txt')).toBe('blue dark');
    expect(await colourOf('/second/moved.txt')).toBe('blue dark');
    expect((await dav.get('/local/tagged.txt')).status).toBe(404);
    expect(await (await dav.get('/second/moved.txt')).text()).toBe('tagged');
    // A live property cannot be set: 403 for it, 424 for the rest, nothing applied.
    const protectedPatch = `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><D:getetag>x</D:getetag><Z:colour>red</Z:colour></D:prop></D:set></D:propertyupdate>`;
    const refused = await (await dav.request('PROPPATCH', '/second/moved.txt', {}, protectedPatch)).text();
    expect(refused).toContain('403 Forbidden');
    expect(refused).toContain('424 Failed Dependency');
    expect(await colourOf('/second/moved.txt')).toBe('blue dark');
  });

  it('keeps locks in the database: a new app on the same database still refuses a write without the token', async () => {
    await dav.put('/local/locked.txt', 'v1');
    const lockinfo = `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>tester</D:owner></D:lockinfo>`;
    const locked = await dav.request('LOCK', '/local/locked.txt', { timeout: 'Second-600' }, lockinfo);
    expect(locked.status).toBe(200);
    const lockToken = locked.headers.get('lock-token') ?? '';
    expect(lockToken).toMatch(/^<opaquelocktoken:[0-9a-f-]{36}>$/);
    const restarted = createApp(t.deps);
    const auth = { authorization: `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64')}` };
    const env = { incoming: { socket: { remoteAddress: '203.0.113.9' } } };
    const refused = await restarted.request('/dav/local/locked.txt', { method: 'PUT', headers: auth, body: 'v2' }, env);
    expect(refused.status).toBe(423);
    expect(await refused.text()).toContain('lock-token-submitted');
    const allowed = await restarted.request('/dav/local/locked.txt', { method: 'PUT', headers: { ...auth, if: `(${lockToken})` }, body: 'v2' }, env);
    expect(allowed.status).toBe(204);
    expect((await dav.request('UNLOCK', '/local/locked.txt', { 'lock-token': lockToken })).status).toBe(204);
    expect((await dav.put('/local/locked.txt', 'v3')).status).toBe(204);
  });

  it('serves the ways desktop clients work: Windows (no trailing slash, Translate: f, LOCK before PUT), Finder (chunked PUT, AppleDouble files), sync tools (stable validators)', async () => {
    await dav.mkcol('/local/clients');
    // Windows names folders without the slash and reads files with Translate: f; the href says what a folder is.
    const [folder] = parseMultistatus(await (await dav.propfind('/local/clients', '0')).text());
    expect(folder?.href).toBe('/dav/local/clients/');
    const lockinfo = '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>WIN</D:href></D:owner></D:lockinfo>';
    const locked = await dav.request('LOCK', '/local/clients/report.docx', { timeout: 'Second-3600', depth: '0' }, lockinfo);
    expect(locked.status).toBe(201);
    const lockToken = locked.headers.get('lock-token') ?? '';
    expect((await dav.put('/local/clients/report.docx', 'doc', { if: `(${lockToken})` })).status).toBe(204);
    const win32 = '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop><Z:Win32LastModifiedTime>Wed, 25 Nov 2026 10:00:00 GMT</Z:Win32LastModifiedTime></D:prop></D:set></D:propertyupdate>';
    expect((await dav.request('PROPPATCH', '/local/clients/report.docx', { if: `(${lockToken})` }, win32)).status).toBe(207);
    expect((await dav.request('UNLOCK', '/local/clients/report.docx', { 'lock-token': lockToken })).status).toBe(204);
    expect(await (await dav.get('/local/clients/report.docx', { translate: 'f' })).text()).toBe('doc');
    // Finder: a body without a length, then its AppleDouble companion and .DS_Store, which are ordinary files here.
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('from '));
        controller.enqueue(new TextEncoder().encode('Finder'));
        controller.close();
      },
    });
    expect((await dav.put('/local/clients/notes.txt', chunked)).status).toBe(201);
    expect((await dav.put('/local/clients/._notes.txt', 'appledouble')).status).toBe(201);
    expect((await dav.put('/local/clients/.DS_Store', 'ds')).status).toBe(201);
    expect(await (await dav.get('/local/clients/notes.txt')).text()).toBe('from Finder');
    // Sync tools: nothing changed, same ETag and date; new content, new ETag.
    const validators = async () => {
      const [file] = parseMultistatus(await (await dav.propfind('/local/clients/notes.txt', '0')).text());
      return [file?.found.get('{DAV:}getetag')?.textContent, file?.found.get('{DAV:}getlastmodified')?.textContent];
    };
    const before = await validators();
    expect(await validators()).toEqual(before);
    await dav.put('/local/clients/notes.txt', 'changed');
    expect((await validators())[0]).not.toBe(before[0]);
  });

  it('drops the cached listing on every write, so the explorer sees what WebDAV changed', async () => {
    const fs = fsClient(t, { token: t.token });
    await dav.mkcol('/local/cached');
    expect(await fs.names('/local/cached')).toEqual([]);
    await dav.put('/local/cached/new.txt', 'new');
    expect(await fs.names('/local/cached')).toEqual(['new.txt']);
    await dav.move('/local/cached/new.txt', '/local/cached/renamed.txt');
    expect(await fs.names('/local/cached')).toEqual(['renamed.txt']);
    await dav.remove('/local/cached/renamed.txt');
    expect(await fs.names('/local/cached')).toEqual([]);
  });

  it('holds a key to mount permission and its base path; the key is both user name and password', async () => {
    const noMount = await t.createKey(t.token, { text_permission: true, file_permission: true });
    expect((await davClient(t, noMount.key, noMount.key).propfind('/', '0')).status).toBe(403);
    await dav.mkcol('/local/keyed');
    await dav.mkcol('/local/keyedother');
    await dav.put('/local/keyedother/secret.txt', 'secret');
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/keyed' });
    const keyed = davClient(t, key.key, key.key);
    expect((await keyed.list('/')).map((r) => r.href)).toEqual(['/dav/', '/dav/local/']);
    expect((await keyed.list('/local/')).map((r) => r.href)).toEqual(['/dav/local/', '/dav/local/keyed/']);
    expect((await keyed.put('/local/keyed/mine.txt', 'mine')).status).toBe(201);
    expect((await keyed.get('/local/keyedother/secret.txt')).status).toBe(403);
    expect((await keyed.put('/local/keyedother/planted.txt', 'x')).status).toBe(403);
    expect((await keyed.copy('/local/keyed/mine.txt', '/local/keyedother/mine.txt')).status).toBe(403);
    expect((await keyed.move('/local/keyedother/secret.txt', '/local/keyed/stolen.txt')).status).toBe(403);
    expect((await keyed.remove('/local/keyedother/secret.txt')).status).toBe(403);
    expect(await (await dav.get('/local/keyedother/secret.txt')).text()).toBe('secret');
  });

  it('refuses a PUT over the max upload size with 413 and over the quota with 507, leaving nothing; tells the quota', async () => {
    await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: 0.001 } });
    expect((await dav.put('/local/too-big.bin', new Uint8Array(5000))).status).toBe(413);
    await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: 100 } });
    const local = fsClient(t, { token: t.token });
    const mount = ((await (await t.request('/api/admin/mounts', { token: t.token })).json()) as { data: { mount_path: string; storage_config_id: string }[] }).data.find((m) => m.mount_path === '/local');
    await t.request(`/api/s3-configs/${mount?.storage_config_id}`, { token: t.token, method: 'PUT', json: { total_storage_bytes: 1 } });
    expect((await dav.put('/local/over-quota.bin', new Uint8Array(5000))).status).toBe(507);
    await t.request(`/api/s3-configs/${mount?.storage_config_id}`, { token: t.token, method: 'PUT', json: { total_storage_bytes: 1_000_000 } });
    const quotaBody = '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-available-bytes/><D:quota-used-bytes/></D:prop></D:propfind>';
    const [folder] = parseMultistatus(await (await dav.propfind('/local/', '0', quotaBody)).text());
    const used = Number(folder?.found.get('{DAV:}quota-used-bytes')?.textContent);
    expect(used).toBeGreaterThanOrEqual(0);
    expect(Number(folder?.found.get('{DAV:}quota-available-bytes')?.textContent)).toBe(1_000_000 - used);
    await t.request(`/api/s3-configs/${mount?.storage_config_id}`, { token: t.token, method: 'PUT', json: { total_storage_bytes: null } });
    const names = await local.names('/local');
    expect(names).not.toContain('too-big.bin');
    expect(names).not.toContain('over-quota.bin');
  });
});
