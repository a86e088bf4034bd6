/**
 * Shares' access logs through HTTP: a paste's views and peeks, a file's downloads (whole, cut by the client over a
 * real socket) and peeks, addresses cut to their network or kept whole by the setting, counts by day and the last
 * view, the retention sweep, who may read a log, and its CSV export.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { accessLogSchema, type AccessLog } from '../../../contract/access-log';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { createdPasteSchema } from '../../../contract/pastes';
import { fileClient, patternBytes } from '../../../tests/fixtures/files';
import { expectError, expectOk, HOUR, useTestApp, type RequestOptions } from '../../../tests/fixtures/test-app';
import { sweepAsLeader } from '../upload-sweeper';
import { loggedAddress } from './addresses';
import { accessRecorderOf } from './recorder';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const DAY = 24 * HOUR;
const MIB = 1024 * 1024;
const VISITOR: RequestOptions = { ip: '203.0.113.77', headers: { 'user-agent': 'Visitor/1.0 (Reader)' } };

describe('share access logs', () => {
  const t = useTestApp();
  let textKey: CreatedApiKey;
  let otherKey: CreatedApiKey;
  let fileKey: CreatedApiKey;

  beforeAll(async () => {
    textKey = await t.createKey(t.token, { text_permission: true });
    otherKey = await t.createKey(t.token, { text_permission: true });
    fileKey = await t.createKey(t.token, { file_permission: true });
  });

  const createPaste = async (content: string, auth: RequestOptions = { token: t.token }) =>
    (await expectOk(await t.request('/api/paste', { ...auth, json: { content } }), createdPasteSchema, 201)).slug;

  const logOf = async (path: string, auth: RequestOptions = { token: t.token }): Promise<AccessLog> =>
    expectOk(await t.request(path, auth), accessLogSchema);

  const setting = async (json: Record<string, unknown>) =>
    expect((await t.request('/api/admin/system-settings', { method: 'PUT', token: t.token, json })).status).toBe(200);

  describe('pastes', () => {
    it('records a visitor\'s view with its bytes and a peek, and nothing of the owner\'s own reads', async () => {
      const content = 'Hello, 世界';
      const slug = await createPaste(content);
      expect((await t.request(`/api/paste/${slug}`, VISITOR)).status).toBe(200);
      expect((await t.request(`/api/paste/${slug}`, { ...VISITOR, method: 'HEAD' })).status).toBe(200);
      expect((await t.request(`/api/raw/${slug}`, { ip: '198.51.100.9' })).status).toBe(200);
      expect((await t.request(`/api/paste/${slug}`, { token: t.token })).status).toBe(200);

      const log = await logOf(`/api/admin/pastes/${slug}/access-log`);
      const bytes = Buffer.byteLength(content);
      expect(log.items).toEqual([
        { at: t.clock.now().toISOString(), ip: '198.51.100.0/24', userAgent: '', kind: 'view', bytes, completed: true, count: 1 },
        { at: t.clock.now().toISOString(), ip: '203.0.113.0/24', userAgent: 'Visitor/1.0 (Reader)', kind: 'peek', bytes: 0, completed: true, count: 1 },
        { at: t.clock.now().toISOString(), ip: '203.0.113.0/24', userAgent: 'Visitor/1.0 (Reader)', kind: 'view', bytes, completed: true, count: 1 },
      ]);
      expect(log.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
      expect(log.days).toEqual([{ day: t.clock.now().toISOString().slice(0, 10), views: 2, peeks: 1 }]);
      expect(log.lastOpenedAt).toBe(t.clock.now().toISOString());
    });

    it('records a protected paste\'s unlock, not its locked page, nor a wrong password', async () => {
      const slug = (await expectOk(await t.request('/api/paste', { token: t.token, json: { content: 'secret', password: 'open sesame' } }), createdPasteSchema, 201)).slug;
      expect((await t.request(`/api/paste/${slug}`, VISITOR)).status).toBe(200);
      expect((await t.request(`/api/paste/${slug}`, { ...VISITOR, json: { password: 'wrong' } })).status).toBe(401);
      expect((await t.request(`/api/paste/${slug}`, { ...VISITOR, json: { password: 'open sesame' } })).status).toBe(200);
      const log = await logOf(`/api/admin/pastes/${slug}/access-log`);
      expect(log.items.map((entry) => [entry.kind, entry.bytes])).toEqual([['view', 6]]);
    });

    it('counts by day, tells the last view apart from later peeks, and pages newest first', async () => {
      const slug = await createPaste('daily');
      const start = t.clock.now();
      try {
        await t.request(`/api/paste/${slug}`, VISITOR);
        // Noon to one in the morning: the next UTC day, within the admin's session.
        t.clock.advance(13 * HOUR);
        await t.request(`/api/paste/${slug}`, VISITOR);
        const lastView = t.clock.now().toISOString();
        t.clock.advance(HOUR);
        await t.request(`/api/paste/${slug}`, { ...VISITOR, method: 'HEAD' });

        const log = await logOf(`/api/admin/pastes/${slug}/access-log?limit=1&offset=1`);
        expect(log.items).toMatchObject([{ kind: 'view', at: lastView }]);
        expect(log.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
        expect(log.days).toEqual([
          { day: start.toISOString().slice(0, 10), views: 1, peeks: 0 },
          { day: lastView.slice(0, 10), views: 1, peeks: 1 },
        ]);
        expect(log.lastOpenedAt).toBe(lastView);
      } finally {
        t.clock.set(start);
      }
    });

    it('writes identical accesses of one second as one entry with their count, and counts each by day', async () => {
      const slug = await createPaste('busy');
      for (let n = 0; n < 3; n++) expect((await t.request(`/api/paste/${slug}`, VISITOR)).status).toBe(200);
      await t.request(`/api/paste/${slug}`, { ...VISITOR, headers: { 'user-agent': 'Another/1.0' } });
      t.clock.advance(1000);
      await t.request(`/api/paste/${slug}`, VISITOR);
      const log = await logOf(`/api/admin/pastes/${slug}/access-log`);
      t.clock.advance(-1000);
      expect(log.items.map(({ userAgent, count, bytes }) => ({ userAgent, count, bytes }))).toEqual([
        { userAgent: 'Visitor/1.0 (Reader)', count: 1, bytes: 4 },
        { userAgent: 'Another/1.0', count: 1, bytes: 4 },
        { userAgent: 'Visitor/1.0 (Reader)', count: 3, bytes: 12 },
      ]);
      expect(log.days).toMatchObject([{ views: 5, peeks: 0 }]);
    });

    it('answers 400 for a bad page or format', async () => {
      const slug = await createPaste('paged');
      for (const query of ['limit=0', 'limit=201', 'offset=-1', 'format=xml']) {
        await expectError(await t.request(`/api/admin/pastes/${slug}/access-log?${query}`, { token: t.token }), 400);
      }
    });
  });

  describe('addresses', () => {
    it.each([
      ['203.0.113.77', '203.0.113.0/24', '203.0.113.77'],
      ['::ffff:198.51.100.23', '198.51.100.0/24', '198.51.100.23'],
      ['2001:db8:85a3:1234:5678::7', '2001:db8:85a3::/48', '2001:db8:85a3:1234:5678::7'],
      ['2001:DB8::1', '2001:db8::/48', '2001:db8::1'],
      ['fe80::1%eth0', 'fe80::/48', 'fe80::1'],
      ['::1', '::/48', '::1'],
      ['64:ff9b::192.0.2.33', '64:ff9b::/48', '64:ff9b::c000:221'],
      ['unknown', '', ''],
    ])('keeps %s as %s, or whole as %s', (address, truncated, whole) => {
      expect(loggedAddress(address, false)).toBe(truncated);
      expect(loggedAddress(address, true)).toBe(whole);
    });

    it('cuts IPv6 visitors to their /48, and keeps whole addresses once the admin turns them on', async () => {
      const slug = await createPaste('addresses');
      await t.request(`/api/paste/${slug}`, { ip: '2001:db8:85a3:1234:5678::7' });
      await accessRecorderOf(t.deps).flush();
      await setting({ access_log_full_ip: true });
      await t.request(`/api/paste/${slug}`, { ip: '2001:db8:85a3:1234:5678::7' });
      await t.request(`/api/paste/${slug}`, { ip: '203.0.113.77' });
      const log = await logOf(`/api/admin/pastes/${slug}/access-log`);
      await setting({ access_log_full_ip: false });
      expect(log.items.map((entry) => entry.ip)).toEqual(['203.0.113.77', '2001:db8:85a3:1234:5678::7', '2001:db8:85a3::/48']);
    });

    it('writes visitors of one network in one second as one entry once their addresses are cut', async () => {
      const slug = await createPaste('neighbours');
      for (const ip of ['203.0.113.77', '203.0.113.78', '203.0.113.77']) await t.request(`/api/paste/${slug}`, { ip });
      const log = await logOf(`/api/admin/pastes/${slug}/access-log`);
      expect(log.items.map(({ ip, count }) => ({ ip, count }))).toEqual([{ ip: '203.0.113.0/24', count: 3 }]);
    });
  });

  describe('file shares', () => {
    it('records a download that finished, with its bytes, and a peek', async () => {
      const f = fileClient(t);
      const bytes = patternBytes(300_000);
      const share = await f.uploadOk(bytes, { apiKey: fileKey.key }, { filename: 'report.pdf' });
      expect((await f.info(share.slug, { ...VISITOR, method: 'HEAD' })).status).toBe(200);
      const info = await f.infoOk(share.slug, VISITOR);
      const download = await f.getUrl(info.downloadUrl ?? '', VISITOR);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

      const log = await logOf(`/api/user/files/${share.slug}/access-log`, { apiKey: fileKey.key });
      expect(log.items.map(({ kind, bytes: sent, completed, ip }) => ({ kind, sent, completed, ip }))).toEqual([
        { kind: 'view', sent: bytes.length, completed: true, ip: '203.0.113.0/24' },
        { kind: 'peek', sent: 0, completed: true, ip: '203.0.113.0/24' },
      ]);
      expect(log.lastOpenedAt).not.toBeNull();
    });

    it('records a download the visitor cut off mid-way as not completed, with the bytes that went', async () => {
      const f = fileClient(t);
      const size = 48 * MIB;
      const share = await f.uploadOk(patternBytes(size), { token: t.token }, { filename: 'big.bin' });
      const info = await f.infoOk(share.slug, VISITOR);
      const controller = new AbortController();
      const res = await fetch(await t.overHttp(info.downloadUrl ?? ''), { signal: controller.signal });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      expect((await reader.read()).done).toBe(false);
      controller.abort();

      await vi.waitFor(
        async () => {
          const log = await logOf(`/api/admin/files/${share.slug}/access-log`);
          expect(log.items).toMatchObject([{ kind: 'view', completed: false, ip: '127.0.0.0/24' }]);
          expect(log.items[0]?.bytes).toBeGreaterThan(0);
          expect(log.items[0]?.bytes).toBeLessThan(size);
        },
        { timeout: 10_000, interval: 100 },
      );
    });
  });

  describe('who may read a log', () => {
    it('lets a key read its own shares\' logs only; others get 404, 403 or 401 as for the shares', async () => {
      const own = await createPaste('mine', { apiKey: textKey.key });
      const admins = await createPaste('the admin\'s');
      await t.request(`/api/paste/${own}`, VISITOR);

      expect((await logOf(`/api/user/pastes/${own}/access-log`, { apiKey: textKey.key })).items).toHaveLength(1);
      expect((await logOf(`/api/admin/pastes/${own}/access-log`)).items).toHaveLength(1);
      await expectError(await t.request(`/api/user/pastes/${own}/access-log`, { apiKey: otherKey.key }), 404);
      await expectError(await t.request(`/api/user/pastes/${admins}/access-log`, { apiKey: textKey.key }), 404);
      await expectError(await t.request(`/api/user/pastes/${own}/access-log.csv`, { apiKey: otherKey.key }), 404);
      await expectError(await t.request(`/api/user/pastes/${own}/access-log`, { apiKey: fileKey.key }), 403);
      await expectError(await t.request(`/api/admin/pastes/${own}/access-log`, { apiKey: textKey.key }), 403);
      await expectError(await t.request(`/api/user/pastes/${own}/access-log`), 401);
      const f = fileClient(t);
      const adminsFile = (await f.uploadOk(patternBytes(10), { token: t.token })).slug;
      const keysFile = (await f.uploadOk(patternBytes(10), { apiKey: fileKey.key })).slug;
      expect((await logOf(`/api/user/files/${keysFile}/access-log`, { apiKey: fileKey.key })).items).toEqual([]);
      await expectError(await t.request(`/api/user/files/${adminsFile}/access-log`, { apiKey: fileKey.key }), 404);
      await expectError(await t.request(`/api/user/files/${keysFile}/access-log.csv`, { apiKey: textKey.key }), 403);
      await expectError(await t.request('/api/admin/pastes/no-such-slug/access-log', { token: t.token }), 404);
      await expectError(await t.request('/api/admin/files/no-such-slug/access-log', { token: t.token }), 404);
    });

    it('forgets a deleted share\'s accesses, even those not written yet', async () => {
      const written = await createPaste('written');
      const pending = await createPaste('pending');
      await t.request(`/api/paste/${written}`, VISITOR);
      await accessRecorderOf(t.deps).flush();
      await t.request(`/api/paste/${pending}`, VISITOR);
      await t.db.deleteFrom('pastes').where('slug', 'in', [written, pending]).execute();
      await accessRecorderOf(t.deps).flush();
      const left = await t.db
        .selectFrom('share_access_log')
        .innerJoin('pastes', 'pastes.id', 'share_access_log.paste_id')
        .select('slug')
        .where('slug', 'in', [written, pending])
        .execute();
      expect(left).toEqual([]);
      expect(await t.db.selectFrom('share_access_log').select('id').where('paste_id', 'is', null).where('file_id', 'is', null).execute()).toEqual([]);
    });
  });

  describe('CSV export', () => {
    it('answers RFC 4180 with a byte order mark, a header line and each access quoted as needed', async () => {
      const slug = await createPaste('exported');
      const agent = 'Odd/2.0 (a, "quoted" agent)';
      await t.request(`/api/paste/${slug}`, { ip: '203.0.113.5', headers: { 'user-agent': agent } });
      await t.request(`/api/paste/${slug}`, { ip: '203.0.113.6', method: 'HEAD', headers: { 'user-agent': '=cmd' } });
      const at = t.clock.now().toISOString();

      for (const path of [`/api/admin/pastes/${slug}/access-log.csv`, `/api/admin/pastes/${slug}/access-log?format=csv`]) {
        const res = await t.request(path, { token: t.token });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
        expect(res.headers.get('content-disposition')).toContain(`access-log-${slug}.csv`);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        expect(bytes.subarray(3).toString('utf8')).toBe(
          'time,ip,user_agent,kind,bytes,completed,count\r\n' +
            `${at},203.0.113.0/24,'=cmd,peek,0,true,1\r\n` +
            `${at},203.0.113.0/24,"Odd/2.0 (a, ""quoted"" agent)",view,8,true,1\r\n`,
        );
      }
    });

    it('reads a log longer than one read of the database whole, in order', async () => {
      const slug = await createPaste('busy');
      const id = (await t.db.selectFrom('pastes').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
      const base = t.clock.now().getTime();
      const rows = Array.from({ length: 2500 }, (_, n) => ({
        paste_id: id,
        file_id: null,
        at: new Date(base - Math.floor(n / 3) * 1000).toISOString(),
        ip: `${n}`,
        user_agent: '',
        kind: 'view' as const,
        bytes: n,
        completed: 1,
        count: 1,
      }));
      for (let start = 0; start < rows.length; start += 500) await t.db.insertInto('share_access_log').values(rows.slice(start, start + 500)).execute();
      const text = await (await t.request(`/api/admin/pastes/${slug}/access-log.csv`, { token: t.token })).text();
      const lines = text.replace(/^\uFEFF/, '').trimEnd().split('\r\n').slice(1);
      expect(lines).toHaveLength(2500);
      expect(lines.map((line) => Number(line.split(',')[4]))).toEqual(rows.map((_, n) => n).sort((a, b) => Math.floor(a / 3) - Math.floor(b / 3) || b - a));
    });
  });
});

// An app of its own: months pass on its clock, which ends every session of the app it runs on.
describe('the retention of access logs', () => {
  const t = useTestApp();

  it('lets the leader\'s sweep remove accesses older than the retention setting', async () => {
    const slug = (await expectOk(await t.request('/api/paste', { token: t.token, json: { content: 'kept a while' } }), createdPasteSchema, 201)).slug;
    const start = t.clock.now();
    await t.request(`/api/paste/${slug}`, VISITOR);
    t.clock.advance(60 * DAY);
    await t.request(`/api/paste/${slug}`, VISITOR);
    t.clock.advance(31 * DAY);
    await accessRecorderOf(t.deps).flush();
    const token = await t.login();
    const times = async () => (await expectOk(await t.request(`/api/admin/pastes/${slug}/access-log`, { token }), accessLogSchema)).items.map((entry) => entry.at);

    await sweepAsLeader(t.deps);
    expect(await times()).toEqual([new Date(start.getTime() + 60 * DAY).toISOString()]);
    expect((await t.request('/api/admin/system-settings', { method: 'PUT', token, json: { access_log_retention_days: 30 } })).status).toBe(200);
    await sweepAsLeader(t.deps);
    expect(await times()).toEqual([]);
  });
});
