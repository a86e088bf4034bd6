/**
 * The peek: a HEAD of a share spends no view and tells in headers what its page shows before "Show" (password,
 * views left, size, type, encryption, expiry); every GET or unlock that answers the content spends exactly one view
 * of the same limit, whichever way it comes (page, unlock, raw; info, verify, view, download).
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { publicFileSchema } from '../../../contract/public-file';
import { createdPasteSchema } from '../../../contract/pastes';
import { publicPasteSchema } from '../../../contract/public-paste';
import { readSharePeek, SHARE_PEEK_HEADERS, type SharePeek } from '../../../contract/share-peek';
import { fileClient, patternBytes } from '../../../tests/fixtures/files';
import { expectError, expectOk, HOUR, type RequestOptions, useTestApp } from '../../../tests/fixtures/test-app';
import { viewCountsOf } from '../shares/view-counts';

const H = SHARE_PEEK_HEADERS;

function payloadOf(text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv);
  return Buffer.concat([iv, cipher.update(text), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

describe('the peek of pastes and files', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  let f: ReturnType<typeof fileClient>;
  const peekOf = (res: Response): SharePeek | undefined => readSharePeek(res.headers);
  const createPaste = async (json: Record<string, unknown>) =>
    expectOk(await t.request('/api/paste', { apiKey: writer.key, json }), createdPasteSchema, 201);
  const paste = (slug: string, options: RequestOptions = {}) => t.request(`/api/paste/${slug}`, options);
  const raw = (slug: string, query = '', options: RequestOptions = {}) => t.request(`/api/raw/${slug}${query}`, options);
  const HEAD = { method: 'HEAD' } as const;
  const pasteViews = async (slug: string) => {
    await viewCountsOf(t.deps).flush();
    return (await t.db.selectFrom('pastes').select('views').where('slug', '=', slug).executeTakeFirstOrThrow()).views;
  };

  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true, file_permission: true });
    f = fileClient(t);
  });

  it('tells a plain paste\'s facts in headers, with an empty body, and spends no view', async () => {
    const content = 'Grüße *aus* dem Skript\n';
    const expiresAt = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const created = await createPaste({ content, maxViews: 3, expiresAt });
    for (let i = 0; i < 3; i++) {
      const head = await paste(created.slug, HEAD);
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(peekOf(head)).toEqual({
        requiresPassword: false,
        viewsLeft: 3,
        size: Buffer.byteLength(content),
        contentType: 'text/markdown; charset=utf-8',
        encryption: null,
        expiresAt,
      } satisfies SharePeek);
      expect(head.headers.get(H.encryption)).toBeNull();
    }
    expect(await pasteViews(created.slug)).toBe(0);
  });

  it('leaves out the view limit and expiry a paste does not have', async () => {
    const created = await createPaste({ content: 'forever' });
    const head = await paste(created.slug, HEAD);
    expect(head.headers.get(H.viewsLeft)).toBeNull();
    expect(head.headers.get(H.expiresAt)).toBeNull();
    expect(peekOf(head)).toMatchObject({ viewsLeft: null, expiresAt: null, size: 7 });
  });

  it('tells an encrypted, protected paste\'s facts without the password and spends no view', async () => {
    const payload = payloadOf('sealed text');
    const created = await createPaste({ content: payload, encryption: 'aes-256-gcm', password: 'pw', maxViews: 2 });
    const head = await paste(created.slug, HEAD);
    expect(head.status).toBe(200);
    expect(head.headers.get(H.password)).toBe('required');
    expect(head.headers.get(H.encryption)).toBe('aes-256-gcm');
    expect(peekOf(head)).toEqual({
      requiresPassword: true,
      viewsLeft: 2,
      size: payload.length,
      contentType: 'application/octet-stream',
      encryption: 'aes-256-gcm',
      expiresAt: null,
    });
    // The raw link's HEAD needs the password as its GET does, and spends nothing either way.
    expect((await raw(created.slug, '', HEAD)).status).toBe(401);
    const rawHead = await raw(created.slug, '?password=pw', HEAD);
    expect(rawHead.status).toBe(200);
    expect(rawHead.headers.get('content-type')).toBe('application/octet-stream');
    expect(rawHead.headers.get('content-length')).toBe(String(payload.length));
    expect(peekOf(rawHead)).toMatchObject({ requiresPassword: false, viewsLeft: 2, encryption: 'aes-256-gcm' });
    expect(await pasteViews(created.slug)).toBe(0);
    // The owner needs no password.
    expect((await paste(created.slug, { ...HEAD, apiKey: writer.key })).headers.get(H.password)).toBe('none');
  });

  it('spends exactly one view per page GET, unlock and raw GET, all against one limit; HEAD between them spends none', async () => {
    const created = await createPaste({ content: 'counted', password: 'pw', maxViews: 3 });
    const viewsLeft = async () => (await paste(created.slug, HEAD)).headers.get(H.viewsLeft);

    // A protected paste's page GET without the password shows meta only: no view.
    expect(await expectOk(await paste(created.slug), publicPasteSchema)).not.toHaveProperty('content');
    expect(await viewsLeft()).toBe('3');

    const unlocked = await paste(created.slug, { json: { password: 'pw' } });
    expect((await expectOk(unlocked, publicPasteSchema)).content).toBe('counted');
    expect(unlocked.headers.get(H.viewsLeft)).toBe('2');
    expect(await viewsLeft()).toBe('2');

    const rawRead = await raw(created.slug, '?password=pw');
    expect(await rawRead.text()).toBe('counted');
    expect(rawRead.headers.get(H.viewsLeft)).toBe('1');
    expect(await viewsLeft()).toBe('1');
    expect(await pasteViews(created.slug)).toBe(2);

    expect(await (await raw(created.slug, '?password=pw')).text()).toBe('counted');
    expect(await pasteViews(created.slug)).toBe(3);
    await expectError(await paste(created.slug, { json: { password: 'pw' } }), 410);
    expect((await raw(created.slug, '?password=pw')).status).toBe(410);
    expect((await paste(created.slug, HEAD)).status).toBe(410);
    expect(await pasteViews(created.slug)).toBe(3);
  });

  it('spends one view per open page GET', async () => {
    const created = await createPaste({ content: 'open', maxViews: 2 });
    const first = await paste(created.slug);
    expect((await expectOk(first, publicPasteSchema)).views).toBe(1);
    expect(first.headers.get(H.viewsLeft)).toBe('1');
    expect(await pasteViews(created.slug)).toBe(1);
    expect((await paste(created.slug, HEAD)).headers.get(H.viewsLeft)).toBe('1');
    await expectOk(await paste(created.slug), publicPasteSchema);
    expect((await paste(created.slug)).status).toBe(410);
    expect(await pasteViews(created.slug)).toBe(2);
  });

  it('answers the peek over real HTTP too', async () => {
    const origin = await t.listen();
    const created = await createPaste({ content: 'over the wire', maxViews: 5 });
    const head = await fetch(`${origin}/api/paste/${created.slug}`, { method: 'HEAD' });
    expect(peekOf(head)).toMatchObject({ viewsLeft: 5, size: 13, requiresPassword: false });
    const rawHead = await fetch(`${origin}/api/raw/${created.slug}`, { method: 'HEAD' });
    expect(rawHead.headers.get('content-length')).toBe('13');
    expect(rawHead.headers.get(H.size)).toBe('13');
    expect(await pasteViews(created.slug)).toBe(0);
  });

  describe('files', () => {
    const fileViews = (slug: string) => f.views(slug);

    it('tells a file\'s facts on the info\'s HEAD and on the bytes\' HEAD, spending no view', async () => {
      const bytes = patternBytes(1234);
      const share = await f.uploadOk(bytes, { token: t.token }, {
        filename: 'notes.txt',
        type: 'text/plain',
        fields: { password: 'pw', max_views: '4', expires_in: '2' },
      });
      const info = await f.info(share.slug, HEAD);
      expect(info.status).toBe(200);
      expect(peekOf(info)).toEqual({
        requiresPassword: true,
        viewsLeft: 4,
        size: 1234,
        contentType: 'text/plain',
        encryption: null,
        expiresAt: share.expiresAt,
      });
      expect((await f.download(share.slug, '', HEAD)).status).toBe(401);
      for (const read of [f.view, f.download]) {
        const head = await read(share.slug, '?password=pw', HEAD);
        expect(head.status).toBe(200);
        expect(head.headers.get('content-length')).toBe('1234');
        expect(peekOf(head)).toMatchObject({ requiresPassword: false, viewsLeft: 4, size: 1234, contentType: 'text/plain' });
        // The bytes allow any origin: the peek headers are exposed to it too.
        expect(head.headers.get('access-control-expose-headers')).toContain(H.viewsLeft);
      }
      expect(await fileViews(share.slug)).toBe(0);
    });

    it('spends exactly one view per info GET, verify, and password download or view; links handed out spend none', async () => {
      const open = await f.uploadOk(patternBytes(10), { token: t.token }, { fields: { max_views: '2' } });
      const info = await f.info(open.slug);
      expect(info.headers.get(H.viewsLeft)).toBe('1');
      const { downloadUrl = '' } = await expectOk(info, publicFileSchema);
      expect((await f.getUrl(downloadUrl)).status).toBe(200);
      expect((await f.getUrl(downloadUrl, HEAD)).status).toBe(200);
      expect(await fileViews(open.slug)).toBe(1);
      expect((await f.info(open.slug, HEAD)).headers.get(H.viewsLeft)).toBe('1');
      expect((await f.info(open.slug)).status).toBe(200);
      expect((await f.info(open.slug)).status).toBe(410);
      expect((await f.info(open.slug, HEAD)).status).toBe(410);
      expect(await fileViews(open.slug)).toBe(2);

      const locked = await f.uploadOk(patternBytes(10), { token: t.token }, { fields: { password: 'pw', max_views: '3' } });
      expect((await f.info(locked.slug)).headers.get(H.password)).toBe('required');
      expect(await fileViews(locked.slug)).toBe(0);
      const verified = await f.verify(locked.slug, 'pw');
      expect(verified.status).toBe(200);
      expect(verified.headers.get(H.password)).toBe('none');
      expect(verified.headers.get(H.viewsLeft)).toBe('2');
      expect((await f.download(locked.slug, '?password=pw')).status).toBe(200);
      expect(await fileViews(locked.slug)).toBe(2);
      const viewed = await f.view(locked.slug, '?password=pw');
      expect(viewed.status).toBe(200);
      expect(viewed.headers.get(H.viewsLeft)).toBe('0');
      expect(await fileViews(locked.slug)).toBe(3);
      for (const res of [await f.verify(locked.slug, 'pw'), await f.download(locked.slug, '?password=pw'), await f.view(locked.slug, '?password=pw')]) {
        expect(res.status).toBe(410);
      }
      expect(await fileViews(locked.slug)).toBe(3);
    });
  });
});
