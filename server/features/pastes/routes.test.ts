import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { adminPasteListSchema, clearExpiredResultSchema, createdPasteSchema, PASTE_CONTENT_MAX_BYTES, pasteDetailSchema, userPasteListSchema, type CreatePasteRequest } from '../../../contract/pastes';
import { publicPasteSchema, type PublicPaste } from '../../../contract/public-paste';
import { batchDeleteResultSchema } from '../../../contract/lists';
import { slugAvailabilitySchema } from '../../../contract/slugs';
import { expectError, expectOk, HOUR, MINUTE, type RequestOptions, type TestApp, useTestApp } from '../../../tests/fixtures/test-app';
import { viewCountsOf } from '../shares/view-counts';

type Auth = Pick<RequestOptions, 'token' | 'apiKey'>;

const SLUG_TAKEN_EN = 'Link suffix is already taken, please try another';
const SLUG_TAKEN_ZH = '链接后缀已被占用，请换一个';

/** Helpers bound to one test app. */
function pasteClient(t: TestApp) {
  const create = (json: unknown, auth: Auth) => t.request('/api/paste', { ...auth, json });
  return {
    create,
    createOk: async (json: CreatePasteRequest, auth: Auth) => expectOk(await create(json, auth), createdPasteSchema, 201),
    view: (slug: string, options: RequestOptions = {}) => t.request(`/api/paste/${encodeURIComponent(slug)}`, options),
    viewOk: async (slug: string, options: RequestOptions = {}) =>
      expectOk(await t.request(`/api/paste/${encodeURIComponent(slug)}`, options), publicPasteSchema),
    unlock: (slug: string, password: unknown, options: RequestOptions = {}) =>
      t.request(`/api/paste/${encodeURIComponent(slug)}`, { ...options, method: 'POST', json: { password } }),
    raw: (slug: string, query = '', options: RequestOptions = {}) =>
      t.request(`/api/raw/${encodeURIComponent(slug)}${query}`, options),
    row: (slug: string) => t.db.selectFrom('pastes').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow(),
    /** The views stored, once the ones counted in memory are written. */
    views: async (slug: string) => {
      await viewCountsOf(t.deps).flush();
      return (await t.db.selectFrom('pastes').select('views').where('slug', '=', slug).executeTakeFirstOrThrow()).views;
    },
  };
}

describe('POST /api/paste', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let reader: CreatedApiKey;
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true });
    reader = await t.createKey(t.token, { text_permission: false, file_permission: true });
    p = pasteClient(t);
  });

  it('creates a paste with a random 6-character base62 slug and answers 201 in the contract shape', async () => {
    const res = await p.create({ content: 'hello' }, { token: t.token });
    const body = (await res.clone().json()) as { message: string };
    expect(body.message).toBe('Paste created');
    const created = await expectOk(res, createdPasteSchema, 201);
    expect(created).toEqual({
      id: expect.any(String),
      slug: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
      remark: null,
      expiresAt: null,
      maxViews: 0,
      hasPassword: false,
      encryption: null,
      createdAt: t.clock.now().toISOString(),
    });
    const row = await p.row(created.slug);
    expect(row).toMatchObject({ id: created.id, content: 'hello', created_by: 'admin', views: 0, password_hash: null });
  });

  it('gives every paste its own random slug', async () => {
    const slugs = await Promise.all([1, 2, 3, 4, 5].map((n) => p.createOk({ content: `n${n}` }, { token: t.token })));
    expect(new Set(slugs.map((s) => s.slug)).size).toBe(5);
  });

  it('records an API key as creator apikey:<id>', async () => {
    const created = await p.createOk({ content: 'from a key' }, { apiKey: writer.key });
    expect((await p.row(created.slug)).created_by).toBe(`apikey:${writer.id}`);
  });

  it('needs credentials (401) and, for a key, the text permission (403)', async () => {
    expect((await expectError(await p.create({ content: 'x' }, {}), 401)).data.error).toBe('unauthorized');
    expect((await expectError(await p.create({ content: 'x' }, { apiKey: reader.key }), 403)).data.error).toBe(
      'forbidden',
    );
    await expectError(await p.create({ content: 'x' }, { apiKey: 'not-a-key-at-all' }), 401);
  });

  it('keeps a custom slug, remark (trimmed), expiry (as UTC), max views and a password flag', async () => {
    const created = await p.createOk(
      {
        content: 'custom',
        slug: 'my-notes_1',
        remark: '  shopping list  ',
        expiresAt: '2030-01-16T14:00:00+02:00',
        maxViews: 3,
        password: 'sesame',
      },
      { token: t.token },
    );
    expect(created).toMatchObject({
      slug: 'my-notes_1',
      remark: 'shopping list',
      expiresAt: '2030-01-16T12:00:00.000Z',
      maxViews: 3,
      hasPassword: true,
    });
  });

  it('stores the password as an scrypt hash and never returns it', async () => {
    const res = await p.create({ content: 'secret', password: 'open sesame' }, { token: t.token });
    const text = await res.clone().text();
    const created = await expectOk(res, createdPasteSchema, 201);
    const row = await p.row(created.slug);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('open sesame');
    expect(text).not.toContain('open sesame');
    expect(text).not.toContain('scrypt');
  });

  it('answers 409 with the agreed message when a custom slug is taken, in English and Chinese', async () => {
    await p.createOk({ content: 'first', slug: 'taken-one' }, { token: t.token });
    const en = await expectError(await p.create({ content: 'second', slug: 'taken-one' }, { token: t.token }), 409);
    expect(en.message).toBe(SLUG_TAKEN_EN);
    expect(en.data).toMatchObject({ error: 'conflict', field: 'slug' });
    const zh = await expectError(
      await t.request('/api/paste', {
        token: t.token,
        json: { content: 'second', slug: 'taken-one' },
        headers: { 'accept-language': 'zh-CN' },
      }),
      409,
    );
    expect(zh.message).toBe(SLUG_TAKEN_ZH);
  });

  it('lets exactly one of several concurrent creates with the same custom slug win', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => p.create({ content: `racer ${i}`, slug: 'race-slug' }, { token: t.token })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expect((await expectError(res, 409)).message).toBe(SLUG_TAKEN_EN);
  });

  it.each([
    ['admin', 'reserved'],
    ['api', 'reserved'],
    ['Upload', 'reserved'],
    ['raw', 'reserved'],
    ['.hidden', 'reserved'],
    ['a'.repeat(51), 'too_long'],
    ['with space', 'invalid_characters'],
    ['slash/es', 'invalid_characters'],
    ['ümlaut', 'invalid_characters'],
  ])('refuses the slug %j with 400 (%s)', async (slug, issue) => {
    const body = await expectError(await p.create({ content: 'x', slug }, { token: t.token }), 400);
    expect(body.data).toMatchObject({ error: 'validation', field: 'slug', issue });
  });

  it('accepts a 50-character slug', async () => {
    const slug = 'b'.repeat(50);
    expect((await p.createOk({ content: 'x', slug }, { token: t.token })).slug).toBe(slug);
  });

  it.each([
    ['empty', { content: '' }, 'content'],
    ['blank', { content: ' \n\t ' }, 'content'],
    ['missing', {}, 'content'],
    ['not a string', { content: 42 }, 'content'],
    ['negative max views', { content: 'x', maxViews: -1 }, 'maxViews'],
    ['fractional max views', { content: 'x', maxViews: 1.5 }, 'maxViews'],
    ['max views as a word', { content: 'x', maxViews: 'five' }, 'maxViews'],
    ['invalid expiry', { content: 'x', expiresAt: 'tomorrow' }, 'expiresAt'],
    ['impossible date', { content: 'x', expiresAt: '2031-02-31T00:00:00Z' }, 'expiresAt'],
    ['empty password', { content: 'x', password: '' }, 'password'],
    ['long password', { content: 'x', password: 'p'.repeat(129) }, 'password'],
    ['long remark', { content: 'x', remark: 'r'.repeat(501) }, 'remark'],
  ])('refuses %s with 400 naming the field', async (_name, json, field) => {
    const body = await expectError(await p.create(json, { token: t.token }), 400);
    expect(body.data).toMatchObject({ error: 'validation', field });
  });

  it('refuses an expiry that is not in the future by the server clock (400 expiresAt)', async () => {
    for (const expiresAt of [t.clock.now().toISOString(), new Date(t.clock.now().getTime() - MINUTE).toISOString()]) {
      const body = await expectError(await p.create({ content: 'x', expiresAt }, { token: t.token }), 400);
      expect(body.data).toMatchObject({ field: 'expiresAt', issue: 'in_past' });
    }
    const future = new Date(t.clock.now().getTime() + 1000).toISOString();
    expect((await p.createOk({ content: 'x', expiresAt: future }, { token: t.token })).expiresAt).toBe(future);
    expect((await p.createOk({ content: 'x', expiresAt: null }, { token: t.token })).expiresAt).toBeNull();
  });

  it('accepts exactly 10 MB of content and refuses one byte more with 400 content too_large', async () => {
    const exact = 'a'.repeat(PASTE_CONTENT_MAX_BYTES);
    const created = await p.createOk({ content: exact }, { token: t.token });
    expect((await p.row(created.slug)).content.length).toBe(PASTE_CONTENT_MAX_BYTES);

    const over = await expectError(await p.create({ content: `${exact}a` }, { token: t.token }), 400);
    expect(over.data).toMatchObject({ field: 'content', issue: 'too_large' });
  });

  it('counts the limit in UTF-8 bytes, not characters', async () => {
    const twoByte = 'é'.repeat(PASTE_CONTENT_MAX_BYTES / 2 + 1); // 5 Mi characters, 10 MiB + 2 bytes
    const body = await expectError(await p.create({ content: twoByte }, { token: t.token }), 400);
    expect(body.data).toMatchObject({ field: 'content', issue: 'too_large' });
  });
});

describe('GET and POST /api/paste/:slug', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let other: CreatedApiKey;
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true });
    other = await t.createKey(t.token, { text_permission: true });
    p = pasteClient(t);
  });

  it('answers an open paste with its content and counts exactly one view', async () => {
    const created = await p.createOk({ content: 'open *text*', remark: 'r', maxViews: 10 }, { token: t.token });
    const paste = await p.viewOk(created.slug);
    expect(paste).toEqual({
      slug: created.slug,
      remark: 'r',
      expiresAt: null,
      maxViews: 10,
      views: 1,
      hasPassword: false,
      requiresPassword: false,
      encryption: null,
      createdAt: created.createdAt,
      content: 'open *text*',
      contentHtml: '<p>open <em>text</em></p>\n',
      canEdit: false,
    } satisfies PublicPaste);
    expect(await p.views(created.slug)).toBe(1);
    expect((await p.viewOk(created.slug)).views).toBe(2);
    expect(await p.views(created.slug)).toBe(2);
  });

  it('answers 404 for an unknown slug', async () => {
    const body = await expectError(await p.view('no-such-paste'), 404);
    expect(body).toMatchObject({ message: 'Paste not found', data: { error: 'not_found' } });
  });

  it('answers a protected paste with its meta only and counts no view', async () => {
    const created = await p.createOk({ content: 'hidden', password: 'pw-1', remark: 'locked' }, { token: t.token });
    const paste = await p.viewOk(created.slug);
    expect(paste).toMatchObject({ hasPassword: true, requiresPassword: true, canEdit: false, remark: 'locked', views: 0 });
    expect(paste).not.toHaveProperty('content');
    expect(paste).not.toHaveProperty('id');
    expect(await p.views(created.slug)).toBe(0);
  });

  it('unlocks with the right password: content and one view', async () => {
    const created = await p.createOk({ content: 'hidden', password: 'pw-2' }, { token: t.token });
    const paste = await expectOk(await p.unlock(created.slug, 'pw-2'), publicPasteSchema);
    expect(paste).toMatchObject({ content: 'hidden', views: 1, hasPassword: true, requiresPassword: false, canEdit: false });
    expect(await p.views(created.slug)).toBe(1);
  });

  it('refuses a wrong password with 401 "Wrong password" that is no session failure, and counts no view', async () => {
    const created = await p.createOk({ content: 'hidden', password: 'pw-3' }, { token: t.token });
    const en = await expectError(await p.unlock(created.slug, 'PW-3'), 401);
    expect(en.message).toBe('Wrong password');
    expect(en.data.error).toBe('unauthorized');
    const zh = await expectError(await p.unlock(created.slug, 'nope', { headers: { 'accept-language': 'zh-CN' } }), 401);
    expect(zh.message).toBe('密码错误');
    // Sent with another key's credentials: still a wrong password, not an invalid key.
    const withKey = await expectError(await p.unlock(created.slug, 'nope', { apiKey: other.key }), 401);
    expect(withKey.data.error).toBe('unauthorized');
    expect(await p.views(created.slug)).toBe(0);
  });

  it('refuses an unlock body without a password (400)', async () => {
    const created = await p.createOk({ content: 'hidden', password: 'pw-4' }, { token: t.token });
    const body = await expectError(await t.request(`/api/paste/${created.slug}`, { json: {} }), 400);
    expect(body.data.field).toBe('password');
    expect((await expectError(await p.unlock('no-such-paste', 'x'), 404)).data.error).toBe('not_found');
  });

  it('unlocking an open paste just opens it (one view)', async () => {
    const created = await p.createOk({ content: 'open' }, { token: t.token });
    expect(await expectOk(await p.unlock(created.slug, 'anything'), publicPasteSchema)).toMatchObject({
      content: 'open',
      views: 1,
    });
  });

  it('returns content up to and including the last allowed view, then 410 used_up', async () => {
    const created = await p.createOk({ content: 'twice', maxViews: 2 }, { token: t.token });
    expect((await p.viewOk(created.slug)).views).toBe(1);
    const last = await p.viewOk(created.slug);
    expect(last).toMatchObject({ content: 'twice', views: 2 });
    const gone = await expectError(await p.view(created.slug), 410);
    expect(gone).toMatchObject({ message: 'This paste has reached its view limit', data: { error: 'gone', state: 'used_up' } });
    expect(await p.views(created.slug)).toBe(2);
  });

  it('counts the view limit on unlocks too', async () => {
    const created = await p.createOk({ content: 'once', maxViews: 1, password: 'pw-5' }, { token: t.token });
    await expectOk(await p.unlock(created.slug, 'pw-5'), publicPasteSchema);
    await expectError(await p.unlock(created.slug, 'pw-5'), 410);
    // A used-up protected paste is gone for the page as well, and no password is checked.
    await expectError(await p.view(created.slug), 410);
    await expectError(await p.unlock(created.slug, 'wrong'), 410);
  });

  it('gives exactly 5 of 100 concurrent readers the content of a paste with maxViews 5', async () => {
    const created = await p.createOk({ content: 'race', maxViews: 5 }, { token: t.token });
    const answers = await Promise.all(Array.from({ length: 100 }, () => p.view(created.slug)));
    const ok = answers.filter((r) => r.status === 200);
    const gone = answers.filter((r) => r.status === 410);
    expect(ok).toHaveLength(5);
    expect(gone).toHaveLength(95);
    const pastes = await Promise.all(ok.map((r) => expectOk(r, publicPasteSchema)));
    expect(pastes.every((paste) => paste.content === 'race')).toBe(true);
    expect(pastes.map((paste) => paste.views).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const res of gone) expect((await expectError(res, 410)).data.error).toBe('gone');
    expect(await p.views(created.slug)).toBe(5);
  });

  it('gives exactly 3 of 12 concurrent unlocks with the right password the content of a paste with maxViews 3', async () => {
    const created = await p.createOk({ content: 'locked race', maxViews: 3, password: 'pw-race' }, { token: t.token });
    const answers = await Promise.all(Array.from({ length: 12 }, () => p.unlock(created.slug, 'pw-race')));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 410)).toHaveLength(9);
    expect(await p.views(created.slug)).toBe(3);
  });

  it('lets the admin read any paste without password and without counting, with canEdit and id', async () => {
    const created = await p.createOk({ content: 'key owned', password: 'pw-6', maxViews: 1 }, { apiKey: writer.key });
    for (let i = 0; i < 3; i++) {
      const paste = await p.viewOk(created.slug, { token: t.token });
      expect(paste).toMatchObject({ content: 'key owned', canEdit: true, id: created.id, requiresPassword: false, views: 0 });
    }
    expect(await p.views(created.slug)).toBe(0);
    // The one allowed visitor view is still there.
    expect((await expectOk(await p.unlock(created.slug, 'pw-6'), publicPasteSchema)).content).toBe('key owned');
  });

  it('lets the creating key read its own paste the same way; another key is a visitor', async () => {
    const created = await p.createOk({ content: 'mine', password: 'pw-7' }, { apiKey: writer.key });
    const own = await p.viewOk(created.slug, { apiKey: writer.key });
    expect(own).toMatchObject({ content: 'mine', canEdit: true, id: created.id, views: 0 });
    const owner = await expectOk(await p.unlock(created.slug, 'wrong', { apiKey: writer.key }), publicPasteSchema);
    expect(owner).toMatchObject({ content: 'mine', canEdit: true });

    const foreign = await p.viewOk(created.slug, { apiKey: other.key });
    expect(foreign).toMatchObject({ requiresPassword: true, canEdit: false });
    expect(foreign).not.toHaveProperty('content');
    expect(foreign).not.toHaveProperty('id');
    await expectError(await p.unlock(created.slug, 'wrong', { apiKey: other.key }), 401);
    expect(await p.views(created.slug)).toBe(0);
  });

  it('treats a key that lost its text permission as a visitor of its old pastes', async () => {
    const key = await t.createKey(t.token, { text_permission: true });
    const created = await p.createOk({ content: 'old' }, { apiKey: key.key });
    await t.request(`/api/admin/api-keys/${key.id}`, { method: 'PUT', token: t.token, json: { text_permission: false } });
    expect(await p.viewOk(created.slug, { apiKey: key.key })).toMatchObject({ canEdit: false, views: 1 });
  });

  it('ignores refused credentials on the public view (no 401 for a dead token)', async () => {
    const created = await p.createOk({ content: 'public' }, { token: t.token });
    expect((await p.viewOk(created.slug, { token: 'expired-or-unknown' })).canEdit).toBe(false);
    expect((await p.viewOk(created.slug, { apiKey: 'unknown-key-123' })).canEdit).toBe(false);
  });

  it('counts no view for a HEAD request', async () => {
    const created = await p.createOk({ content: 'peek', maxViews: 1 }, { token: t.token });
    const head = await p.view(created.slug, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await p.views(created.slug)).toBe(0);
    expect((await p.view('no-such-paste', { method: 'HEAD' })).status).toBe(404);
  });
});

describe('expiry', () => {
  const t = useTestApp();
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    p = pasteClient(t);
  });

  it('serves a paste until its expiry, then 410 expired for visitors and the raw link; admins still list it', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const expiring = await p.createOk({ content: 'soon gone', expiresAt }, { token: t.token });
    const usedUp = await p.createOk({ content: 'one look', maxViews: 1 }, { token: t.token });
    const active = await p.createOk({ content: 'stays' }, { token: t.token });
    await p.viewOk(usedUp.slug);
    expect((await p.viewOk(expiring.slug)).content).toBe('soon gone');

    t.clock.advance(HOUR);
    const gone = await expectError(await p.view(expiring.slug), 410);
    expect(gone).toMatchObject({ message: 'This paste has expired', data: { error: 'gone', state: 'expired' } });
    expect((await expectError(await p.unlock(expiring.slug, 'x'), 410)).data.state).toBe('expired');
    const raw = await p.raw(expiring.slug);
    expect(raw.status).toBe(410);
    expect(await raw.text()).toBe('This paste has expired');
    // Not even the owner reads it through the share link; the admin list has it.
    await expectError(await p.view(expiring.slug, { token: t.token }), 410);

    const list = await expectOk(await t.request('/api/admin/pastes', { token: t.token }), adminPasteListSchema);
    const states = Object.fromEntries(list.items.map((item) => [item.slug, item.state]));
    expect(states).toEqual({ [expiring.slug]: 'expired', [usedUp.slug]: 'used_up', [active.slug]: 'active' });
    const detail = await expectOk(await t.request(`/api/admin/pastes/${expiring.id}`, { token: t.token }), pasteDetailSchema);
    expect(detail).toMatchObject({ state: 'expired', content: 'soon gone' });

    const res = await t.request('/api/admin/pastes/clear-expired', { token: t.token, json: { clearExpired: true } });
    const body = (await res.clone().json()) as { message: string };
    expect(await expectOk(res, clearExpiredResultSchema)).toEqual({ deleted: 2 });
    expect(body.message).toBe('2 expired or used-up pastes removed');
    const after = await expectOk(await t.request('/api/admin/pastes', { token: t.token }), adminPasteListSchema);
    expect(after.items.map((item) => item.slug)).toEqual([active.slug]);
    await expectError(await p.view(expiring.slug), 404);
    expect((await p.viewOk(active.slug)).content).toBe('stays');
  });

  it('clear-expired works without a body and is admin only', async () => {
    expect(await expectOk(await t.request('/api/admin/pastes/clear-expired', { method: 'POST', token: t.token }), clearExpiredResultSchema)).toEqual({
      deleted: 0,
    });
    const key = await t.createKey(t.token, { text_permission: true });
    await expectError(await t.request('/api/admin/pastes/clear-expired', { method: 'POST', apiKey: key.key }), 403);
    await expectError(await t.request('/api/user/pastes/clear-expired', { method: 'POST', apiKey: key.key }), 404);
  });
});

describe('GET /api/raw/:slug', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true });
    p = pasteClient(t);
  });

  const expectPlain = (res: Response, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  };

  it('answers the content as inline UTF-8 plain text and counts one view', async () => {
    const content = '<b>not html</b>\nünïcödé 中文 😀\n';
    const created = await p.createOk({ content }, { token: t.token });
    const res = await p.raw(created.slug);
    expectPlain(res, 200);
    expect(res.headers.get('content-disposition')).toBe('inline');
    expect(await res.text()).toBe(content);
    expect(await p.views(created.slug)).toBe(1);
  });

  it('answers errors as plain text with the right status', async () => {
    const missing = await p.raw('no-such-paste');
    expectPlain(missing, 404);
    expect(await missing.text()).toBe('Paste not found');

    const zh = await p.raw('no-such-paste', '', { headers: { 'accept-language': 'zh-CN' } });
    expect(await zh.text()).toBe('文本分享不存在');

    const once = await p.createOk({ content: 'once', maxViews: 1 }, { token: t.token });
    expect(await (await p.raw(once.slug)).text()).toBe('once');
    const used = await p.raw(once.slug);
    expectPlain(used, 410);
    expect(await used.text()).toBe('This paste has reached its view limit');
  });

  it('needs the password of a protected paste in the query', async () => {
    const created = await p.createOk({ content: 'raw secret', password: 'pa ss&word' }, { token: t.token });
    const none = await p.raw(created.slug);
    expectPlain(none, 401);
    expect(await none.text()).toBe('This share is protected by a password');
    const wrong = await p.raw(created.slug, '?password=nope');
    expectPlain(wrong, 401);
    expect(await wrong.text()).toBe('Wrong password');
    expect(await p.views(created.slug)).toBe(0);

    const right = await p.raw(created.slug, `?password=${encodeURIComponent('pa ss&word')}`);
    expectPlain(right, 200);
    expect(await right.text()).toBe('raw secret');
    expect(await p.views(created.slug)).toBe(1);
  });

  it('lets the owner read without password and without counting', async () => {
    const created = await p.createOk({ content: 'owned', password: 'pw', maxViews: 1 }, { apiKey: writer.key });
    for (const auth of [{ apiKey: writer.key }, { token: t.token }]) {
      const res = await p.raw(created.slug, '', auth);
      expectPlain(res, 200);
      expect(await res.text()).toBe('owned');
    }
    expect(await p.views(created.slug)).toBe(0);
  });

  it('shares the view limit with the page and counts no view for HEAD', async () => {
    const created = await p.createOk({ content: 'shared', maxViews: 2 }, { token: t.token });
    expect((await p.raw(created.slug, '', { method: 'HEAD' })).status).toBe(200);
    expect(await p.views(created.slug)).toBe(0);
    await p.viewOk(created.slug);
    expect(await (await p.raw(created.slug)).text()).toBe('shared');
    expect((await p.raw(created.slug)).status).toBe(410);
    expect((await p.view(created.slug)).status).toBe(410);
  });

  it('gives exactly 5 of 40 concurrent raw reads the content of a paste with maxViews 5', async () => {
    const created = await p.createOk({ content: 'raw race', maxViews: 5 }, { token: t.token });
    const answers = await Promise.all(Array.from({ length: 40 }, () => p.raw(created.slug)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 410)).toHaveLength(35);
    expect(await p.views(created.slug)).toBe(5);
  });
});

describe('GET /api/slugs/paste/:slug', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true });
    p = pasteClient(t);
  });

  const check = async (slug: string, auth: Auth = { token: t.token }) =>
    expectOk(await t.request(`/api/slugs/paste/${encodeURIComponent(slug)}`, auth), slugAvailabilitySchema);

  it('says whether a slug is free, for admins and keys with text permission', async () => {
    await p.createOk({ content: 'x', slug: 'in-use' }, { token: t.token });
    expect(await check('free-one')).toEqual({ slug: 'free-one', available: true });
    expect(await check('in-use')).toEqual({ slug: 'in-use', available: false });
    expect(await check('in-use', { apiKey: writer.key })).toEqual({ slug: 'in-use', available: false });
    expect(await check('IN-USE')).toEqual({ slug: 'IN-USE', available: true });
  });

  it.each(['admin', 'API', '.hidden', 'a'.repeat(51), 'sp ace', 'dot.ted'])('says %j is not available', async (slug) => {
    expect((await check(slug)).available).toBe(false);
  });

  it('needs the text permission', async () => {
    await expectError(await t.request('/api/slugs/paste/abc'), 401);
    const reader = await t.createKey(t.token, { text_permission: false });
    await expectError(await t.request('/api/slugs/paste/abc', { apiKey: reader.key }), 403);
  });
});

describe('/api/admin/pastes', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true });
    p = pasteClient(t);
  });

  const list = async (query = '') => expectOk(await t.request(`/api/admin/pastes${query}`, { token: t.token }), adminPasteListSchema);
  const put = (id: string, json: unknown) => t.request(`/api/admin/pastes/${id}`, { method: 'PUT', token: t.token, json });
  const detail = async (id: string) => expectOk(await t.request(`/api/admin/pastes/${id}`, { token: t.token }), pasteDetailSchema);

  it('is for admins only', async () => {
    await expectError(await t.request('/api/admin/pastes'), 401);
    await expectError(await t.request('/api/admin/pastes', { apiKey: writer.key }), 403);
    await expectError(await t.request('/api/admin/pastes/some-id', { apiKey: writer.key }), 403);
    await expectError(await t.request('/api/admin/pastes/batch-delete', { apiKey: writer.key, json: { ids: ['x'] } }), 403);
  });

  it('lists every creator’s pastes newest first, 10 a page by default, with pagination', async () => {
    const created = [];
    for (let i = 0; i < 12; i++) {
      created.push(await p.createOk({ content: `paste ${i}` }, i % 2 ? { apiKey: writer.key } : { token: t.token }));
      t.clock.advance(1000);
    }
    const first = await list();
    expect(first.pagination).toEqual({ total: 12, page: 1, limit: 10, totalPages: 2 });
    expect(first.items.map((item) => item.id)).toEqual(created.slice(2).reverse().map((c) => c.id));
    const second = await list('?page=2');
    expect(second.items.map((item) => item.id)).toEqual([created[1]!.id, created[0]!.id]);
    expect((await list('?page=3')).items).toEqual([]);
    const five = await list('?page=2&limit=5');
    expect(five.pagination).toEqual({ total: 12, page: 2, limit: 5, totalPages: 3 });
    expect(new Set(first.items.map((item) => item.createdBy))).toEqual(new Set(['admin', `apikey:${writer.id}`]));
  });

  it('orders pastes created in the same millisecond by creation', async () => {
    const a = await p.createOk({ content: 'same ms a' }, { token: t.token });
    const b = await p.createOk({ content: 'same ms b' }, { token: t.token });
    const items = (await list('?limit=2')).items;
    expect(items.map((item) => item.id)).toEqual([b.id, a.id]);
  });

  it.each(['?page=0', '?page=x', '?limit=0', '?limit=101', '?limit=-1', '?page=1.5'])('refuses %s with 400', async (query) => {
    const body = await expectError(await t.request(`/api/admin/pastes${query}`, { token: t.token }), 400);
    expect(['page', 'limit']).toContain(body.data.field);
  });

  it('summarises: first 200 characters, UTF-8 size, password flag, state; never a password', async () => {
    const content = `${'ü'.repeat(150)}${'x'.repeat(100)}`;
    const created = await p.createOk({ content, password: 'summary-pw', remark: 'note', maxViews: 4 }, { token: t.token });
    const res = await t.request('/api/admin/pastes?limit=1', { token: t.token });
    const text = await res.clone().text();
    const [item] = (await expectOk(res, adminPasteListSchema)).items;
    expect(item).toEqual({
      id: created.id,
      slug: created.slug,
      remark: 'note',
      preview: content.slice(0, 200),
      size: 150 * 2 + 100,
      hasPassword: true,
      encryption: null,
      expiresAt: null,
      maxViews: 4,
      views: 0,
      state: 'active',
      createdBy: 'admin',
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
    expect(text).not.toContain('summary-pw');
    expect(text).not.toContain('scrypt');
    expect(text).not.toContain('password_hash');
  });

  it('GET /:id answers the detail with the whole content; unknown ids 404', async () => {
    const created = await p.createOk({ content: 'whole content here' }, { apiKey: writer.key });
    expect(await detail(created.id)).toMatchObject({
      id: created.id,
      content: 'whole content here',
      preview: 'whole content here',
      size: 18,
      createdBy: `apikey:${writer.id}`,
    });
    const missing = await expectError(await t.request('/api/admin/pastes/nope', { token: t.token }), 404);
    expect(missing.message).toBe('Paste not found');
  });

  it('PUT changes content, remark, slug, expiry, max views and the password', async () => {
    const created = await p.createOk({ content: 'before', slug: 'edit-me' }, { token: t.token });
    t.clock.advance(MINUTE);
    const expiresAt = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const res = await put(created.id, {
      content: 'after',
      remark: ' new remark ',
      slug: 'edited',
      expiresAt,
      maxViews: 7,
      password: 'new-pw',
    });
    const body = (await res.clone().json()) as { message: string };
    expect(body.message).toBe('Paste updated');
    const updated = await expectOk(res, pasteDetailSchema);
    expect(updated).toMatchObject({
      id: created.id,
      slug: 'edited',
      content: 'after',
      remark: 'new remark',
      expiresAt,
      maxViews: 7,
      hasPassword: true,
      createdAt: created.createdAt,
      updatedAt: t.clock.now().toISOString(),
    });
    await expectError(await p.view('edit-me'), 404);
    expect(await p.viewOk('edited')).toMatchObject({ requiresPassword: true });
    expect((await expectOk(await p.unlock('edited', 'new-pw'), publicPasteSchema)).content).toBe('after');

    const cleared = await expectOk(await put(created.id, { password: null, expiresAt: null, remark: '' }), pasteDetailSchema);
    expect(cleared).toMatchObject({ hasPassword: false, expiresAt: null, remark: null, slug: 'edited', maxViews: 7 });
    expect((await p.row('edited')).password_hash).toBeNull();
    expect((await p.viewOk('edited')).content).toBe('after');
  });

  it('PUT with an empty body changes nothing but the update time', async () => {
    const created = await p.createOk({ content: 'same', password: 'keep-me' }, { token: t.token });
    const updated = await expectOk(await put(created.id, {}), pasteDetailSchema);
    expect(updated).toMatchObject({ content: 'same', hasPassword: true, slug: created.slug });
  });

  it('PUT refuses a slug taken by another paste (409) but accepts the paste’s own', async () => {
    const a = await p.createOk({ content: 'a', slug: 'slug-a' }, { token: t.token });
    await p.createOk({ content: 'b', slug: 'slug-b' }, { token: t.token });
    const body = await expectError(await put(a.id, { slug: 'slug-b' }), 409);
    expect(body.message).toBe(SLUG_TAKEN_EN);
    expect(body.data.field).toBe('slug');
    expect((await expectOk(await put(a.id, { slug: 'slug-a' }), pasteDetailSchema)).slug).toBe('slug-a');
  });

  it.each([
    [{ content: '' }, 'content'],
    [{ slug: 'admin' }, 'slug'],
    [{ slug: 'x'.repeat(51) }, 'slug'],
    [{ maxViews: -1 }, 'maxViews'],
    [{ password: '' }, 'password'],
    [{ expiresAt: 'soon' }, 'expiresAt'],
  ])('PUT refuses %j with 400', async (json, field) => {
    const created = await p.createOk({ content: 'valid' }, { token: t.token });
    expect((await expectError(await put(created.id, json), 400)).data.field).toBe(field);
  });

  it('PUT refuses a past expiry (400 expiresAt) and answers 404 for unknown ids', async () => {
    const created = await p.createOk({ content: 'valid' }, { token: t.token });
    const past = new Date(t.clock.now().getTime() - 1).toISOString();
    expect((await expectError(await put(created.id, { expiresAt: past }), 400)).data.field).toBe('expiresAt');
    await expectError(await put('nope', { remark: 'x' }), 404);
  });

  it('PUT can revive a used-up paste by raising max views', async () => {
    const created = await p.createOk({ content: 'again', maxViews: 1 }, { token: t.token });
    await p.viewOk(created.slug);
    expect((await detail(created.id)).state).toBe('used_up');
    expect((await expectOk(await put(created.id, { maxViews: 2 }), pasteDetailSchema)).state).toBe('active');
    expect((await p.viewOk(created.slug)).views).toBe(2);
  });

  it('DELETE removes the paste; a second DELETE is 404', async () => {
    const created = await p.createOk({ content: 'bye' }, { apiKey: writer.key });
    const res = await t.request(`/api/admin/pastes/${created.id}`, { method: 'DELETE', token: t.token });
    expect(await expectOk(res, v.null())).toBeNull();
    await expectError(await t.request(`/api/admin/pastes/${created.id}`, { method: 'DELETE', token: t.token }), 404);
    await expectError(await p.view(created.slug), 404);
  });

  it('batch-delete answers 200 when all were deleted, 202 with the missing count otherwise', async () => {
    const a = await p.createOk({ content: 'a' }, { token: t.token });
    const b = await p.createOk({ content: 'b' }, { apiKey: writer.key });
    const c = await p.createOk({ content: 'c' }, { token: t.token });
    const all = await t.request('/api/admin/pastes/batch-delete', { token: t.token, json: { ids: [a.id, b.id] } });
    expect(await expectOk(all, batchDeleteResultSchema, 200)).toEqual({ deleted: 2, missing: 0 });
    const partial = await t.request('/api/admin/pastes/batch-delete', { token: t.token, json: { ids: [c.id, a.id, 'nope', c.id] } });
    const body = (await partial.clone().json()) as { message: string };
    expect(await expectOk(partial, batchDeleteResultSchema, 202)).toEqual({ deleted: 1, missing: 2 });
    expect(body.message).toBe('1 deleted, 2 not found');
    await expectError(await p.view(c.slug), 404);
  });

  it.each([[{}], [{ ids: [] }], [{ ids: [''] }], [{ ids: 'abc' }]])('batch-delete refuses %j with 400', async (json) => {
    expect((await expectError(await t.request('/api/admin/pastes/batch-delete', { token: t.token, json }), 400)).data.field).toMatch(/^ids/);
  });
});

describe('/api/user/pastes', () => {
  const t = useTestApp();
  let alice: CreatedApiKey;
  let bob: CreatedApiKey;
  let p: ReturnType<typeof pasteClient>;
  beforeAll(async () => {
    alice = await t.createKey(t.token, { text_permission: true });
    bob = await t.createKey(t.token, { text_permission: true });
    p = pasteClient(t);
  });

  const list = async (auth: Auth, query = '') =>
    expectOk(await t.request(`/api/user/pastes${query}`, auth), userPasteListSchema);

  it('lists only the key’s own pastes, newest first, offset-paginated (10 by default)', async () => {
    const mine = [];
    for (let i = 0; i < 12; i++) {
      mine.push(await p.createOk({ content: `alice ${i}` }, { apiKey: alice.key }));
      await p.createOk({ content: `bob ${i}` }, { apiKey: bob.key });
      t.clock.advance(1000);
    }
    await p.createOk({ content: 'admin paste' }, { token: t.token });

    const first = await list({ apiKey: alice.key });
    expect(first.pagination).toEqual({ total: 12, limit: 10, offset: 0, hasMore: true });
    expect(first.items.map((item) => item.id)).toEqual(mine.slice(2).reverse().map((c) => c.id));
    expect(first.items.every((item) => item.createdBy === `apikey:${alice.id}`)).toBe(true);
    const rest = await list({ apiKey: alice.key }, '?limit=5&offset=10');
    expect(rest.pagination).toEqual({ total: 12, limit: 5, offset: 10, hasMore: false });
    expect(rest.items.map((item) => item.id)).toEqual([mine[1]!.id, mine[0]!.id]);
    expect((await list({ apiKey: alice.key }, '?offset=50')).items).toEqual([]);
    expect((await list({ apiKey: alice.key }, `?offset=${Number.MAX_SAFE_INTEGER}`)).items).toEqual([]);
  });

  it('shows an admin calling the user routes the admin’s own pastes', async () => {
    const adminList = await list({ token: t.token });
    expect(adminList.items.map((item) => item.createdBy)).toEqual(['admin']);
    expect(adminList.pagination.total).toBe(1);
  });

  it.each(['?limit=0', '?limit=101', '?offset=-1', '?offset=x', '?offset=99999999999999999999'])(
    'refuses %s with 400',
    async (query) => {
      const body = await expectError(await t.request(`/api/user/pastes${query}`, { apiKey: alice.key }), 400);
      expect(['limit', 'offset']).toContain(body.data.field);
    },
  );

  it('needs the text permission', async () => {
    await expectError(await t.request('/api/user/pastes'), 401);
    const reader = await t.createKey(t.token, { text_permission: false, file_permission: true });
    await expectError(await t.request('/api/user/pastes', { apiKey: reader.key }), 403);
  });

  it('reads, updates and deletes the key’s own paste', async () => {
    const created = await p.createOk({ content: 'alice own' }, { apiKey: alice.key });
    const path = `/api/user/pastes/${created.id}`;
    expect(await expectOk(await t.request(path, { apiKey: alice.key }), pasteDetailSchema)).toMatchObject({
      content: 'alice own',
    });
    const updated = await expectOk(
      await t.request(path, { method: 'PUT', apiKey: alice.key, json: { content: 'alice edited', slug: 'alice-slug' } }),
      pasteDetailSchema,
    );
    expect(updated).toMatchObject({ content: 'alice edited', slug: 'alice-slug' });
    await expectOk(await t.request(path, { method: 'DELETE', apiKey: alice.key }), v.null());
    await expectError(await t.request(path, { apiKey: alice.key }), 404);
  });

  it('treats another key’s paste as not found, for every call', async () => {
    const bobs = await p.createOk({ content: 'bob private' }, { apiKey: bob.key });
    const path = `/api/user/pastes/${bobs.id}`;
    await expectError(await t.request(path, { apiKey: alice.key }), 404);
    await expectError(await t.request(path, { method: 'PUT', apiKey: alice.key, json: { content: 'hijack' } }), 404);
    await expectError(await t.request(path, { method: 'DELETE', apiKey: alice.key }), 404);
    const batch = await t.request('/api/user/pastes/batch-delete', { apiKey: alice.key, json: { ids: [bobs.id] } });
    expect(await expectOk(batch, batchDeleteResultSchema, 202)).toEqual({ deleted: 0, missing: 1 });
    // The admin's own user routes do not reach it either; the admin routes do.
    await expectError(await t.request(path, { token: t.token }), 404);
    expect(await expectOk(await t.request(`/api/admin/pastes/${bobs.id}`, { token: t.token }), pasteDetailSchema)).toMatchObject({
      content: 'bob private',
    });
    expect((await p.row(bobs.slug)).content).toBe('bob private');
  });

  it('batch-deletes only the key’s own pastes', async () => {
    const a1 = await p.createOk({ content: 'a1' }, { apiKey: alice.key });
    const a2 = await p.createOk({ content: 'a2' }, { apiKey: alice.key });
    const b1 = await p.createOk({ content: 'b1' }, { apiKey: bob.key });
    const own = await t.request('/api/user/pastes/batch-delete', { apiKey: alice.key, json: { ids: [a1.id] } });
    expect(await expectOk(own, batchDeleteResultSchema, 200)).toEqual({ deleted: 1, missing: 0 });
    const mixed = await t.request('/api/user/pastes/batch-delete', { apiKey: alice.key, json: { ids: [a2.id, b1.id] } });
    expect(await expectOk(mixed, batchDeleteResultSchema, 202)).toEqual({ deleted: 1, missing: 1 });
    expect((await p.row(b1.slug)).content).toBe('b1');
  });

  it('a key’s PUT still meets the shared slug space (409 for another key’s slug)', async () => {
    await p.createOk({ content: 'b', slug: 'bobs-slug' }, { apiKey: bob.key });
    const mine = await p.createOk({ content: 'a' }, { apiKey: alice.key });
    const res = await t.request(`/api/user/pastes/${mine.id}`, { method: 'PUT', apiKey: alice.key, json: { slug: 'bobs-slug' } });
    expect((await expectError(res, 409)).message).toBe(SLUG_TAKEN_EN);
  });
});
