/**
 * The share search over real pastes and file shares, on SQLite (FTS5 trigram tables) and, with
 * TEST_DATABASE=postgres, PostgreSQL (pg_trgm indexes): what it finds, what it must never find, whose shares a key
 * sees, and that edits and deletes show at once.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { fileShareSchema } from '../../../contract/files';
import { createdPasteSchema, pasteDetailSchema } from '../../../contract/pastes';
import { shareSearchResultSchema, type ShareSearchResult } from '../../../contract/search';
import { SEARCHED_TEXT_CHARS } from '../../db/migrations/017-share-search';
import { fileClient, patternBytes, type Auth } from '../../../tests/fixtures/files';
import { usingPostgres } from '../../../tests/fixtures/test-database';
import { expectError, expectOk, HOUR, useTestApp } from '../../../tests/fixtures/test-app';

/** A payload as the browser seals it: base64url(IV ‖ ciphertext ‖ tag). */
function encrypt(text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv);
  return Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

describe('share search', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let other: CreatedApiKey;
  const admin = (): Auth => ({ token: t.token });
  const writerAuth = (): Auth => ({ apiKey: writer.key });

  const search = async (q: string, auth: Auth = admin(), route: 'admin' | 'user' = 'admin', limit?: number): Promise<ShareSearchResult> => {
    const query = new URLSearchParams({ q, ...(limit !== undefined && { limit: String(limit) }) });
    return expectOk(await t.request(`/api/${route}/search/shares?${query}`, auth), shareSearchResultSchema);
  };
  const pasteSlugs = async (q: string, auth?: Auth, route?: 'admin' | 'user') => (await search(q, auth, route)).pastes.map((p) => p.slug);
  const fileSlugs = async (q: string, auth?: Auth, route?: 'admin' | 'user') => (await search(q, auth, route)).files.map((f) => f.slug);

  const paste = async (json: Record<string, unknown>, auth: Auth = admin()) =>
    expectOk(await t.request('/api/paste', { ...auth, json }), createdPasteSchema, 201);
  const upload = (filename: string, auth: Auth = admin(), fields: Record<string, string> = {}) =>
    fileClient(t).uploadOk(patternBytes(8), auth, { filename, fields });

  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true, file_permission: true });
    other = await t.createKey(t.token, { text_permission: true, file_permission: true });
  });

  describe('what it finds', () => {
    beforeAll(async () => {
      await paste({ slug: 'plain-one', content: 'Minutes of Tuesday: the Marmalade budget was approved.\nNext: 今年的年度报告已经完成。' });
      await paste({ slug: 'remarked', content: 'nothing to see', remark: 'Quarterly Zeppelin review' });
      await paste({ slug: 'giraffe-notes', content: 'slug only' });
      await paste({ slug: 'percent', content: 'x', remark: 'grew 50%_ overnight' });
      await upload('Harpsichord-manual.PDF', admin(), { slug: 'manual-file', remark: 'for the 会议室' });
      await upload('会议纪要.docx', admin(), { slug: 'minutes-cn' });
    });

    it('finds a paste by a word of its text, its remark or its slug, in any case', async () => {
      expect(await pasteSlugs('marmalade')).toEqual(['plain-one']);
      expect(await pasteSlugs('ZEPPELIN')).toEqual(['remarked']);
      expect(await pasteSlugs('giraff')).toEqual(['giraffe-notes']);
      expect(await pasteSlugs('Tuesday: the')).toEqual(['plain-one']);
      expect(await pasteSlugs('marmalades')).toEqual([]);
    });

    it('searches the first SEARCHED_TEXT_CHARS characters of a text, as both databases index them', async () => {
      const head = `kestrel ${'·'.repeat(SEARCHED_TEXT_CHARS - 'kestrel '.length - 'osprey'.length)}osprey`;
      await paste({ slug: 'long-text', content: `${head}buzzard` });
      expect(await pasteSlugs('kestrel')).toEqual(['long-text']);
      expect(await pasteSlugs('osprey')).toEqual(['long-text']);
      expect(await pasteSlugs('buzzard')).toEqual([]);
    });

    it('finds a file share by its name, slug or remark, in any case', async () => {
      expect(await fileSlugs('harpsichord')).toEqual(['manual-file']);
      expect(await fileSlugs('.pdf')).toEqual(['manual-file']);
      expect(await fileSlugs('minutes-c')).toEqual(['minutes-cn']);
      expect(await fileSlugs('会议室')).toEqual(['manual-file']);
      // A file is not a paste and the other way round.
      expect(await pasteSlugs('harpsichord')).toEqual([]);
      expect(await fileSlugs('marmalade')).toEqual([]);
    });

    it('finds Chinese words of two characters (a LIKE) and of three or more (the trigram index)', async () => {
      expect(await pasteSlugs('报告')).toEqual(['plain-one']);
      expect(await pasteSlugs('年度报告')).toEqual(['plain-one']);
      expect(await fileSlugs('纪要')).toEqual(['minutes-cn']);
      expect(await fileSlugs('会议纪要')).toEqual(['minutes-cn']);
      expect((await fileSlugs('会议')).sort()).toEqual(['manual-file', 'minutes-cn']);
      expect(await pasteSlugs('报表')).toEqual([]);
    });

    it('takes %, _ and " literally, in short and long queries', async () => {
      expect(await pasteSlugs('%')).toEqual(['percent']);
      expect(await pasteSlugs('_')).toEqual(['percent']);
      expect(await pasteSlugs('50%_')).toEqual(['percent']);
      expect(await pasteSlugs('5%')).toEqual([]);
      expect(await pasteSlugs('"quarterly')).toEqual([]);
    });
  });

  describe('encrypted pastes', () => {
    const payload = encrypt('The vault opens with zebra-quartz-9183 at dawn.');
    let id: string;

    beforeAll(async () => {
      id = (await paste({ slug: 'sealed-vault', content: payload, encryption: 'aes-256-gcm', remark: 'Sealed vault codes' })).id;
    });

    it('are never found by their payload, long or short, but are by slug and remark', async () => {
      const long = payload.slice(20, 32);
      const short = [...new Set(Array.from({ length: payload.length - 1 }, (_, i) => payload.slice(i, i + 2)))].find(
        (pair) => !'sealed-vault sealed vault codes'.includes(pair.toLowerCase()),
      );
      expect(short).toBeDefined();
      expect(await pasteSlugs(long)).toEqual([]);
      expect(await pasteSlugs(short ?? '')).not.toContain('sealed-vault');
      expect(await pasteSlugs(payload)).not.toContain('sealed-vault');
      expect(await pasteSlugs('vault codes')).toEqual(['sealed-vault']);
      expect(await pasteSlugs('sealed-va')).toEqual(['sealed-vault']);
    });

    it('have no row in the index of texts', async () => {
      if (usingPostgres()) {
        const found = await sql<{ def: string }>`select indexdef as def from pg_indexes where indexname = 'pastes_text_trgm' and schemaname = current_schema()`.execute(t.db);
        expect(found.rows[0]?.def).toMatch(/WHERE \(encryption IS NULL\)$/);
      } else {
        const indexed = await sql<{ id: number }>`select id from paste_texts_search_docsize where id = (select rowid from pastes where id = ${id})`.execute(t.db);
        expect(indexed.rows).toEqual([]);
        // The plain pastes of this file are there: the check above can see a row.
        const plain = await sql<{ id: number }>`select id from paste_texts_search_docsize where id = (select rowid from pastes where slug = 'plain-one')`.execute(t.db);
        expect(plain.rows).toHaveLength(1);
      }
    });

    it('leave the index of texts when a plain paste is sealed, and join it when opened again', async () => {
      const created = await paste({ slug: 'soon-sealed', content: 'the walrus protocol' });
      expect(await pasteSlugs('walrus protocol')).toEqual(['soon-sealed']);
      const sealed = encrypt('the walrus protocol');
      await expectOk(await t.request(`/api/admin/pastes/${created.id}`, { ...admin(), method: 'PUT', json: { content: sealed, encryption: 'aes-256-gcm' } }), pasteDetailSchema);
      expect(await pasteSlugs('walrus protocol')).toEqual([]);
      expect(await pasteSlugs(sealed.slice(10, 20))).toEqual([]);
      await expectOk(await t.request(`/api/admin/pastes/${created.id}`, { ...admin(), method: 'PUT', json: { content: 'the narwhal protocol', encryption: null } }), pasteDetailSchema);
      expect(await pasteSlugs('narwhal protocol')).toEqual(['soon-sealed']);
    });
  });

  describe('whose shares', () => {
    beforeAll(async () => {
      await paste({ slug: 'writer-paste', content: 'ocelot ledger' }, writerAuth());
      await paste({ slug: 'other-paste', content: 'ocelot ledger too' }, { apiKey: other.key });
      await paste({ slug: 'admin-paste', content: 'ocelot ledger again' });
      await upload('ocelot-writer.txt', writerAuth(), { slug: 'writer-file' });
      await upload('ocelot-other.txt', { apiKey: other.key }, { slug: 'other-file' });
    });

    it('a key finds only the shares it created; the admin finds all, and its own on the user route', async () => {
      expect(await pasteSlugs('ocelot', writerAuth(), 'user')).toEqual(['writer-paste']);
      expect(await fileSlugs('ocelot', writerAuth(), 'user')).toEqual(['writer-file']);
      expect(await pasteSlugs('ocelot', { apiKey: other.key }, 'user')).toEqual(['other-paste']);
      expect(await pasteSlugs('oc', writerAuth(), 'user')).toEqual(['writer-paste']);
      expect(await pasteSlugs('ocelot')).toEqual(['admin-paste', 'other-paste', 'writer-paste']);
      expect(await fileSlugs('ocelot')).toEqual(['other-file', 'writer-file']);
      expect(await pasteSlugs('ocelot', admin(), 'user')).toEqual(['admin-paste']);
      expect(await fileSlugs('ocelot', admin(), 'user')).toEqual([]);
    });

    it('a key sees the kinds its permissions allow; without either, 403; the admin route is the admin\'s', async () => {
      const textOnly = await t.createKey(t.token, { text_permission: true });
      await paste({ slug: 'text-only-paste', content: 'ocelot' }, { apiKey: textOnly.key });
      expect(await search('ocelot', { apiKey: textOnly.key }, 'user')).toMatchObject({ pastes: [{ slug: 'text-only-paste' }], files: [] });
      const mountOnly = await t.createKey(t.token, { mount_permission: true });
      const refused = await expectError(await t.request('/api/user/search/shares?q=ocelot', { apiKey: mountOnly.key }), 403);
      expect(refused.message).toBe('This API key has none of the permissions text, file');
      await expectError(await t.request('/api/admin/search/shares?q=ocelot', writerAuth()), 403);
      await expectError(await t.request('/api/admin/search/shares?q=ocelot'), 401);
    });
  });

  describe('changes show at once', () => {
    it('an edited paste is found by its new words, no longer by the old ones', async () => {
      const created = await paste({ slug: 'edited', content: 'the pelican report', remark: 'old heron' });
      expect(await pasteSlugs('pelican')).toEqual(['edited']);
      await expectOk(
        await t.request(`/api/admin/pastes/${created.id}`, { ...admin(), method: 'PUT', json: { content: 'the cormorant report', remark: 'new egret' } }),
        pasteDetailSchema,
      );
      expect(await pasteSlugs('pelican')).toEqual([]);
      expect(await pasteSlugs('heron')).toEqual([]);
      expect(await pasteSlugs('cormorant')).toEqual(['edited']);
      expect(await pasteSlugs('egret')).toEqual(['edited']);
      await expectOk(await t.request(`/api/admin/pastes/${created.id}`, { ...admin(), method: 'PUT', json: { slug: 'renamed-bird' } }), pasteDetailSchema);
      expect(await pasteSlugs('edited')).toEqual([]);
      expect(await pasteSlugs('renamed-bi')).toEqual(['renamed-bird']);
    });

    it('a file share is found by its new remark and slug, no longer by the old ones', async () => {
      const file = await upload('plain.txt', admin(), { slug: 'file-before', remark: 'old flamingo' });
      expect(await fileSlugs('flamingo')).toEqual(['file-before']);
      await expectOk(
        await t.request(`/api/admin/files/${file.id}`, { ...admin(), method: 'PUT', json: { slug: 'file-after', remark: 'new toucan' } }),
        fileShareSchema,
      );
      expect(await fileSlugs('flamingo')).toEqual([]);
      expect(await fileSlugs('file-before')).toEqual([]);
      expect(await fileSlugs('toucan')).toEqual(['file-after']);
    });

    it('a deleted paste or file is gone', async () => {
      const created = await paste({ slug: 'doomed', content: 'the albatross memo' });
      const file = await upload('albatross.txt', admin(), { slug: 'doomed-file' });
      expect(await search('albatross')).toMatchObject({ pastes: [{ slug: 'doomed' }], files: [{ slug: 'doomed-file' }] });
      await expectOk(await t.request(`/api/admin/pastes/${created.id}`, { ...admin(), method: 'DELETE' }), v.null());
      await expectOk(await t.request(`/api/admin/files/${file.id}`, { ...admin(), method: 'DELETE' }), v.null());
      expect(await search('albatross')).toEqual({ pastes: [], files: [] });
    });

    it('an expired or used-up share is still found, with its state', async () => {
      await paste({ slug: 'short-lived', content: 'mayfly notes', expiresAt: new Date(t.clock.now().getTime() + HOUR).toISOString() });
      await paste({ slug: 'one-view', content: 'mayfly notes too', maxViews: 1 });
      expect((await t.request('/api/raw/one-view')).status).toBe(200);
      t.clock.advance(2 * HOUR);
      const found = await search('mayfly');
      expect(found.pastes.map((p) => [p.slug, p.state])).toEqual([
        ['one-view', 'used_up'],
        ['short-lived', 'expired'],
      ]);
    });

    it('answers the newest first, at most `limit` of each kind', async () => {
      for (const slug of ['lim-1', 'lim-2', 'lim-3']) {
        await paste({ slug, content: 'quokka' });
        t.clock.advance(1000);
      }
      expect((await search('quokka', admin(), 'admin', 2)).pastes.map((p) => p.slug)).toEqual(['lim-3', 'lim-2']);
    });
  });

  it('refuses a bad query with a 400 in the envelope, naming the field', async () => {
    const refused = async (query: string, field: string, issue?: string) => {
      const body = await expectError(await t.request(`/api/admin/search/shares?${query}`, admin()), 400);
      expect(body.data).toMatchObject({ error: 'validation', field, ...(issue && { issue }) });
    };
    await refused('', 'q');
    await refused('q=', 'q', 'required');
    await refused('q=%20%20', 'q', 'required');
    await refused(`q=${'a'.repeat(101)}`, 'q', 'too_long');
    await refused('q=ab%00c', 'q', 'invalid_character');
    await refused('q=%00', 'q', 'invalid_character');
    await refused('q=abc&limit=0', 'limit', 'must_be_positive');
    await refused('q=abc&limit=abc', 'limit', 'must_be_integer');
    await refused('q=abc&limit=101', 'limit', 'too_large');
    await refused('q=abc&limit=-1', 'limit', 'must_be_integer');
    expect(await search('a'.repeat(100))).toEqual({ pastes: [], files: [] });
    // FTS5's query syntax and bytes that are no UTF-8 are text to find like any other.
    for (const odd of ['*', 'NEAR(a b)', 'a OR b', '"', '""x', '%FF%FE', '%ED%A0%80abc', '%01%02%03']) {
      expect((await t.request(`/api/admin/search/shares?q=${odd}`, admin())).status).toBe(200);
    }
  });
});
