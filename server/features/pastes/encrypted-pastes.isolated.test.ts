/**
 * End-to-end encrypted pastes: the server stores and answers the payload as given, never renders, previews or logs
 * it, and nothing of the text it hides reaches the database.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { adminPasteListSchema, createdPasteSchema, PASTE_CONTENT_MAX_BYTES, pasteDetailSchema, userPasteListSchema } from '../../../contract/pastes';
import { publicPasteSchema } from '../../../contract/public-paste';
import { sqlitePath } from '../../db/database';
import { usingPostgres } from '../../../tests/fixtures/test-database';
import { expectError, expectOk, type RequestOptions, useTestApp } from '../../../tests/fixtures/test-app';
import type * as markdown from './markdown';
import { markdownHtml } from './markdown';
import { viewCountsOf } from '../shares/view-counts';

// Spied on, to show that no encrypted paste is ever handed to the Markdown renderer.
vi.mock('./markdown', async (original) => {
  const actual = await original<typeof markdown>();
  return { ...actual, markdownHtml: vi.fn(actual.markdownHtml) };
});

const ENCRYPTION = 'aes-256-gcm';

/** What the browser and the README's recipe do: base64url(IV ‖ ciphertext ‖ tag). */
function encrypt(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ENCRYPTION, key, iv);
  return Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

function decrypt(payload: string, key: Buffer): string {
  const bytes = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv(ENCRYPTION, key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(-16));
  return Buffer.concat([decipher.update(bytes.subarray(12, -16)), decipher.final()]).toString('utf8');
}

describe('encrypted pastes', () => {
  const t = useTestApp();
  let writer: CreatedApiKey;
  const key = randomBytes(32);
  /** Words no payload or rendering of ours would contain by chance. */
  const plaintext = '# Launch codes\n\nThe vault opens with *zebra-quartz-9183* at dawn.\n';
  const create = (json: unknown, auth: RequestOptions = { apiKey: writer.key }) => t.request('/api/paste', { ...auth, json });
  const views = async (slug: string) => {
    await viewCountsOf(t.deps).flush();
    return (await t.db.selectFrom('pastes').select('views').where('slug', '=', slug).executeTakeFirstOrThrow()).views;
  };

  beforeAll(async () => {
    writer = await t.createKey(t.token, { text_permission: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('stores the payload as given and answers it, with its encryption and without HTML, everywhere', async () => {
    const payload = encrypt(plaintext, key);
    vi.mocked(markdownHtml).mockClear();
    const created = await expectOk(await create({ content: payload, encryption: ENCRYPTION, remark: 'vault' }), createdPasteSchema, 201);
    expect(created.encryption).toBe(ENCRYPTION);
    const row = await t.db.selectFrom('pastes').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content: payload, encryption: ENCRYPTION, remark: 'vault' });

    const page = await expectOk(await t.request(`/api/paste/${created.slug}`), publicPasteSchema);
    expect(page).toMatchObject({ content: payload, encryption: ENCRYPTION, remark: 'vault', views: 1 });
    expect(page).not.toHaveProperty('contentHtml');
    expect(decrypt(page.content ?? '', key)).toBe(plaintext);

    const detail = await expectOk(await t.request(`/api/user/pastes/${created.id}`, { apiKey: writer.key }), pasteDetailSchema);
    expect(detail).toMatchObject({ content: payload, encryption: ENCRYPTION, preview: '', size: payload.length });
    const owned = await expectOk(await t.request('/api/user/pastes', { apiKey: writer.key }), userPasteListSchema);
    expect(owned.items.find((item) => item.id === created.id)).toMatchObject({ encryption: ENCRYPTION, preview: '', size: payload.length });
    const all = await expectOk(await t.request('/api/admin/pastes', { token: t.token }), adminPasteListSchema);
    expect(all.items.find((item) => item.id === created.id)).toMatchObject({ encryption: ENCRYPTION, preview: '' });

    // The owner's view of the page renders nothing either.
    const own = await expectOk(await t.request(`/api/paste/${created.slug}`, { token: t.token }), publicPasteSchema);
    expect(own).toMatchObject({ content: payload, canEdit: true });
    expect(own).not.toHaveProperty('contentHtml');
    expect(vi.mocked(markdownHtml)).not.toHaveBeenCalled();
  });

  it('keeps a plain paste as it was: encryption null, rendered, previewed', async () => {
    const created = await expectOk(await create({ content: 'plain *text*' }), createdPasteSchema, 201);
    expect(created.encryption).toBeNull();
    vi.mocked(markdownHtml).mockClear();
    const page = await expectOk(await t.request(`/api/paste/${created.slug}`), publicPasteSchema);
    expect(page).toMatchObject({ encryption: null, contentHtml: '<p>plain <em>text</em></p>\n' });
    // The spy the encrypted test relies on does see the renderer's calls.
    expect(vi.mocked(markdownHtml)).toHaveBeenCalledWith('plain *text*', created.id);
    const explicit = await expectOk(await create({ content: 'null too', encryption: null }), createdPasteSchema, 201);
    expect(explicit.encryption).toBeNull();
  });

  it('answers the raw payload as application/octet-stream, counting one view', async () => {
    const payload = encrypt(plaintext, key);
    const created = await expectOk(await create({ content: payload, encryption: ENCRYPTION }), createdPasteSchema, 201);
    const res = await t.request(`/api/raw/${created.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(payload);
    expect(await views(created.slug)).toBe(1);
  });

  it('lets no plaintext reach the database or the log, and logs no payload', async () => {
    const secret = 'Quokka-Nebula-5521 is the passphrase';
    const payload = encrypt(secret, key);
    const output: string[] = [];
    const capture = (...args: unknown[]) => {
      output.push(args.map(String).join(' '));
    };
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) vi.spyOn(console, method).mockImplementation(capture);
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown) => {
        output.push(String(chunk));
        return true;
      }) as typeof stream.write);
    }

    const created = await expectOk(await create({ content: payload, encryption: ENCRYPTION, password: 'pw' }), createdPasteSchema, 201);
    await expectOk(await t.request(`/api/paste/${created.slug}`, { json: { password: 'pw' } }), publicPasteSchema);
    await t.request(`/api/raw/${created.slug}?password=pw`);
    await t.request(`/api/paste/${created.slug}`, { method: 'HEAD' });
    await t.request(`/api/user/pastes/${created.id}`, { apiKey: writer.key, method: 'PUT', json: { content: encrypt(secret, key) } });
    await expectError(await create({ content: `${payload}=`, encryption: ENCRYPTION }), 400);
    await viewCountsOf(t.deps).flush();
    vi.restoreAllMocks();

    const logged = output.join('\n');
    expect(logged).not.toContain('Quokka');
    expect(logged).not.toContain(payload.slice(0, 24));

    const rows = await t.db.selectFrom('pastes').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('Quokka');
    if (!usingPostgres()) {
      const file = sqlitePath(t.dataDir);
      // The WAL holds recent writes until a checkpoint: both files, byte by byte.
      const bytes = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((path) => readFileSync(path)));
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(Buffer.from('Quokka'))).toBe(false);
    }
  });

  it.each([
    ['not base64url (+ and /)', `${'A'.repeat(40)}+/`, 'not_base64url'],
    ['not base64url (spaces)', `${'A'.repeat(20)} ${'A'.repeat(20)}`, 'not_base64url'],
    ['padded', `${'A'.repeat(42)}==`, 'not_base64url'],
    ['of an impossible length (4n+1)', 'A'.repeat(41), 'not_base64url'],
    ['shorter than IV + tag (27 bytes)', Buffer.alloc(27).toString('base64url'), 'payload_too_short'],
  ])('refuses a payload %s with 400 at content', async (_what, content, issue) => {
    const error = await expectError(await create({ content, encryption: ENCRYPTION }), 400);
    expect(error.data).toMatchObject({ field: 'content', issue });
    expect(error.message).toContain('content');
    expect(error.message).toMatch(issue === 'not_base64url' ? /base64url without padding/ : /28 bytes/);
  });

  it('accepts the shortest payload (IV + tag of an empty text) and refuses an unknown encryption', async () => {
    const empty = encrypt('', key);
    expect(Buffer.from(empty, 'base64url')).toHaveLength(28);
    await expectOk(await create({ content: empty, encryption: ENCRYPTION }), createdPasteSchema, 201);
    const unknown = await expectError(await create({ content: empty, encryption: 'rot13' }), 400);
    expect(unknown.data).toMatchObject({ field: 'encryption' });
  });

  it('applies the size limit to the payload', async () => {
    const fits = 'A'.repeat(PASTE_CONTENT_MAX_BYTES);
    await expectOk(await create({ content: fits, encryption: ENCRYPTION }), createdPasteSchema, 201);
    const over = 'A'.repeat(PASTE_CONTENT_MAX_BYTES + 4);
    expect((await expectError(await create({ content: over, encryption: ENCRYPTION }), 400)).data).toMatchObject({
      field: 'content',
      issue: 'too_large',
    });
  }, 30_000);

  it('gates the payload behind the password, and keeps slug, remark, expiry and view limit', async () => {
    const payload = encrypt(plaintext, key);
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const created = await expectOk(
      await create({ content: payload, encryption: ENCRYPTION, password: 'sesame', slug: 'sealed-note', remark: 'r', expiresAt, maxViews: 1 }),
      createdPasteSchema,
      201,
    );
    expect(created).toMatchObject({ slug: 'sealed-note', remark: 'r', expiresAt, maxViews: 1, hasPassword: true, encryption: ENCRYPTION });
    const locked = await expectOk(await t.request('/api/paste/sealed-note'), publicPasteSchema);
    expect(locked).toMatchObject({ requiresPassword: true, encryption: ENCRYPTION });
    expect(locked).not.toHaveProperty('content');
    expect(await (await t.request('/api/raw/sealed-note')).text()).not.toContain(payload);
    await expectError(await t.request('/api/paste/sealed-note', { json: { password: 'nope' } }), 401);
    const opened = await expectOk(await t.request('/api/paste/sealed-note', { json: { password: 'sesame' } }), publicPasteSchema);
    expect(opened.content).toBe(payload);
    await expectError(await t.request('/api/paste/sealed-note', { json: { password: 'sesame' } }), 410);
  });

  it('lets the owner edit: new payload, back to plain text, and checks content against the kept encryption', async () => {
    const created = await expectOk(await create({ content: encrypt('first', key), encryption: ENCRYPTION }), createdPasteSchema, 201);
    const put = (json: unknown) => t.request(`/api/user/pastes/${created.id}`, { apiKey: writer.key, method: 'PUT', json });

    const second = encrypt('second', key);
    const edited = await expectOk(await put({ content: second }), pasteDetailSchema);
    expect(edited).toMatchObject({ content: second, encryption: ENCRYPTION, preview: '' });
    expect(decrypt(edited.content, key)).toBe('second');

    // Content alone keeps the encryption, so it must be a payload.
    expect((await expectError(await put({ content: 'not a payload!' }), 400)).data).toMatchObject({ field: 'content', issue: 'not_base64url' });
    // An encryption needs the content it describes.
    expect((await expectError(await put({ encryption: null }), 400)).data).toMatchObject({ field: 'content', issue: 'required' });
    expect((await expectError(await put({ content: 'shortish', encryption: ENCRYPTION }), 400)).data).toMatchObject({
      field: 'content',
      issue: 'payload_too_short',
    });

    const plain = await expectOk(await put({ content: 'now *plain*', encryption: null }), pasteDetailSchema);
    expect(plain).toMatchObject({ encryption: null, preview: 'now *plain*' });
    const page = await expectOk(await t.request(`/api/paste/${created.slug}`), publicPasteSchema);
    expect(page).toMatchObject({ encryption: null, contentHtml: '<p>now <em>plain</em></p>\n' });

    const again = encrypt('third', key);
    expect(await expectOk(await put({ content: again, encryption: ENCRYPTION, remark: 'sealed again' }), pasteDetailSchema)).toMatchObject({
      content: again,
      encryption: ENCRYPTION,
      remark: 'sealed again',
    });
  });
});
