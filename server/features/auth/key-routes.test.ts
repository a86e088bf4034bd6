import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiKeyListSchema, apiKeySchema, createdApiKeySchema, type ApiKey, type CreatedApiKey } from '../../../contract/api-keys';
import { apiKeyTestResponseSchema } from '../../../contract/auth';
import { expectError, expectOk, HOUR, MINUTE, type TestApp, useTestApp } from '../../../tests/fixtures/test-app';
import { usingPostgres } from '../../../tests/fixtures/test-database';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A created key as every later answer shows it: without the key. */
const shown = ({ key: _key, ...rest }: CreatedApiKey): ApiKey => rest;
/** The `data` of an answer as sent, before the contract's schema strips what it does not know. */
const rawData = async (res: Response) => ((await res.clone().json()) as { data: unknown }).data;

describe('/api/admin/api-keys', () => {
  const t = useTestApp();

  const post = (json: unknown) => t.request('/api/admin/api-keys', { token: t.token, json });
  const put = (id: string, json: unknown) => t.request(`/api/admin/api-keys/${id}`, { method: 'PUT', token: t.token, json });
  const list = async () => expectOk(await t.request('/api/admin/api-keys', { token: t.token }), apiKeyListSchema);
  const find = async (id: string) => (await list()).find((key) => key.id === id);

  describe('create', () => {
    it('generates a 24-character base62 key and answers 201 with the contract shape', async () => {
      const res = await post({ name: 'generated' });
      expect(res.status).toBe(201);
      const body = (await res.clone().json()) as { message: string };
      expect(body.message).toBe('API key created');
      const key = await expectOk(res, createdApiKeySchema, 201);
      expect(key.key).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(key).toMatchObject({
        name: 'generated',
        key_masked: `${key.key.slice(0, 6)}…`,
        text_permission: false,
        file_permission: false,
        mount_permission: false,
        expense_permission: false,
        basic_path: '/',
        expires_at: null,
        last_used: null,
        created_at: t.clock.now().toISOString(),
      });
    });

    it('generates a different key every time', async () => {
      const keys = await Promise.all(['g1', 'g2', 'g3'].map((name) => t.createKey(t.token, { name })));
      expect(new Set(keys.map((k) => k.key)).size).toBe(3);
      expect(new Set(keys.map((k) => k.id)).size).toBe(3);
    });

    it('keeps permissions, base path and a future expiry as given', async () => {
      const expires = new Date(t.clock.now().getTime() + 30 * 24 * HOUR).toISOString();
      const key = await t.createKey(t.token, {
        name: 'full',
        text_permission: true,
        file_permission: false,
        mount_permission: true,
        expense_permission: true,
        basic_path: '/local/team',
        expires_at: expires,
      });
      expect(key).toMatchObject({
        text_permission: true,
        file_permission: false,
        mount_permission: true,
        expense_permission: true,
        basic_path: '/local/team',
        expires_at: expires,
      });
      expect(await find(key.id)).toEqual(shown(key));
    });

    it.each([
      ['/local/dir/', '/local/dir'],
      ['/local/', '/local'],
      ['/', '/'],
    ])('takes the base path %j (CloudPaste clients end folders with a slash) and stores it as %j', async (given, stored) => {
      const key = await t.createKey(t.token, { name: `slash ${given}`, basic_path: given });
      expect(key.basic_path).toBe(stored);
      const row = await t.db.selectFrom('api_keys').select('basic_path').where('id', '=', key.id).executeTakeFirstOrThrow();
      expect(row.basic_path).toBe(stored);
      expect((await find(key.id))?.basic_path).toBe(stored);
    });

    it('takes a custom key', async () => {
      const key = await t.createKey(t.token, { name: 'custom', custom_key: 'my_Custom-key_01' });
      expect(key.key).toBe('my_Custom-key_01');
      expect(key.key_masked).toBe('my_Cus…');
    });

    it.each([8, 64])('takes a custom key of %i characters', async (length) => {
      const custom = 'k'.repeat(length - 1) + String(length % 10);
      const key = await t.createKey(t.token, { name: `custom-${length}`, custom_key: custom });
      expect(key.key).toBe(custom);
    });

    it.each([
      ['too short', 'abc_123', 'too_short'],
      ['too long', 'a'.repeat(65), 'too_long'],
      ['with a space', 'has space1', 'invalid_characters'],
      ['with a slash', 'abc/defgh', 'invalid_characters'],
      ['with non-ASCII letters', 'schlüssel1', 'invalid_characters'],
      ['empty', '', 'too_short'],
    ])('refuses a custom key %s with 400 naming custom_key', async (_name, custom, issue) => {
      const body = await expectError(await post({ name: `bad-${_name}`, custom_key: custom }), 400);
      expect(body.data).toMatchObject({ error: 'validation', field: 'custom_key', issue });
      expect((await list()).some((k) => k.name === `bad-${_name}`)).toBe(false);
    });

    it('refuses a custom key that is already in use with 409', async () => {
      await t.createKey(t.token, { name: 'first-owner', custom_key: 'shared-key-123' });
      const body = await expectError(await post({ name: 'second-owner', custom_key: 'shared-key-123' }), 409);
      expect(body.data).toMatchObject({ error: 'conflict', field: 'custom_key' });
    });

    it('refuses a duplicate name with 409, also after trimming', async () => {
      await t.createKey(t.token, { name: 'dup' });
      for (const name of ['dup', '  dup  ']) {
        const body = await expectError(await post({ name }), 409);
        expect(body.data).toMatchObject({ error: 'conflict', field: 'name' });
        expect(body.message).toBe('An API key with this name already exists');
      }
      expect((await list()).filter((k) => k.name === 'dup')).toHaveLength(1);
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['no name', {}, 'name'],
      ['a name over 50 characters', { name: 'n'.repeat(51) }, 'name'],
      ['a relative base path', { name: 'p1', basic_path: 'local' }, 'basic_path'],
      ['a base path with ..', { name: 'p2', basic_path: '/local/../etc' }, 'basic_path'],
      ['a base path with two trailing slashes', { name: 'p3', basic_path: '/local//' }, 'basic_path'],
      ['a base path with .. and a trailing slash', { name: 'p3b', basic_path: '/local/../' }, 'basic_path'],
      ['a non-boolean permission', { name: 'p4', text_permission: 'yes' }, 'text_permission'],
      ['a date that is not ISO', { name: 'p5', expires_at: 'next tuesday' }, 'expires_at'],
      ['a date that does not exist', { name: 'p6', expires_at: '2031-02-30T00:00:00Z' }, 'expires_at'],
    ])('answers 400 for %s', async (_name, json, field) => {
      const body = await expectError(await post(json), 400);
      expect(body.data).toMatchObject({ error: 'validation', field });
    });

    it('refuses an expiry in the past or now with 400 naming expires_at', async () => {
      for (const at of [new Date(t.clock.now().getTime() - MINUTE), t.clock.now()]) {
        const body = await expectError(await post({ name: 'past', expires_at: at.toISOString() }), 400);
        expect(body.data).toMatchObject({ field: 'expires_at', issue: 'in_past' });
        expect(body.message).toBe('The expiry time must be in the future');
      }
    });

    it('refuses a past expiry written with an hour-only offset, instead of storing a key that never expires', async () => {
      const body = await expectError(await post({ name: 'offset-past', expires_at: '2020-01-01T00:00:00+01' }), 400);
      expect(body.data.field).toBe('expires_at');
    });

    it('stores expiries in one UTC form whatever offset they were written with', async () => {
      const key = await t.createKey(t.token, { name: 'offset', expires_at: '2031-06-01T12:00:00+02' });
      expect(key.expires_at).toBe('2031-06-01T10:00:00.000Z');
      const row = await t.db.selectFrom('api_keys').select('expires_at').where('id', '=', key.id).executeTakeFirstOrThrow();
      expect(row.expires_at).toBe('2031-06-01T10:00:00.000Z');
    });

    it('takes expires_at: null as never', async () => {
      const key = await t.createKey(t.token, { name: 'never', expires_at: null });
      expect(key.expires_at).toBeNull();
    });
  });

  describe('storage', () => {
    it('stores the SHA-256 of the key and no copy of it, in the row or anywhere in the database files', async () => {
      const generated = await t.createKey(t.token, { name: 'stored-generated' });
      const custom = await t.createKey(t.token, { name: 'stored-custom', custom_key: 'PlainTextCustomKey-42' });
      for (const key of [generated, custom]) {
        const row = await t.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
        expect(row.key_hash).toBe(sha256(key.key));
        expect(row.key_prefix).toBe(key.key.slice(0, 6));
        expect(row).not.toHaveProperty('key_encrypted');
        for (const [column, value] of Object.entries(row)) expect(String(value), column).not.toContain(key.key);
      }
      // On PostgreSQL the database files are the server's; the row is all there is to check.
      if (usingPostgres()) return;
      const files = readdirSync(t.dataDir).filter((name) => name.startsWith('clipstash.sqlite'));
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) {
        const bytes = readFileSync(join(t.dataDir, name));
        expect(bytes.includes(generated.key)).toBe(false);
        expect(bytes.includes(custom.key)).toBe(false);
      }
    });
  });

  describe('list', () => {
    it('shows every key, newest first, by its first characters and never in full', async () => {
      t.clock.advance(1000);
      const older = await t.createKey(t.token, { name: 'list-older' });
      t.clock.advance(1000);
      const newer = await t.createKey(t.token, { name: 'list-newer', custom_key: 'abcdefghij' });
      const res = await t.request('/api/admin/api-keys', { token: t.token });
      const text = await res.clone().text();
      const sent = (await rawData(res)) as Record<string, unknown>[];
      const keys = await expectOk(res, apiKeyListSchema);
      expect(keys[0]).toEqual(shown(newer));
      expect(keys[1]).toEqual(shown(older));
      expect(keys[0]?.key_masked).toBe('abcdef…');
      expect(keys[1]?.key_masked).toBe(`${older.key.slice(0, 6)}…`);
      expect(sent.length).toBe(keys.length);
      for (const key of sent) expect(key).not.toHaveProperty('key');
      for (const key of [older, newer]) expect(text).not.toContain(key.key);
    });
  });

  describe('update', () => {
    let key: CreatedApiKey;
    beforeEach(async () => {
      key = await t.createKey(t.token);
    });

    it('changes name, permissions, base path and expiry, and keeps the key', async () => {
      t.clock.advance(1000);
      const expires = new Date(t.clock.now().getTime() + 7 * 24 * HOUR).toISOString();
      const res = await put(key.id, {
        name: `${key.name}-renamed`,
        text_permission: true,
        file_permission: true,
        mount_permission: true,
        expense_permission: true,
        basic_path: '/local/x',
        expires_at: expires,
      });
      expect(await rawData(res)).not.toHaveProperty('key');
      expect(await res.clone().text()).not.toContain(key.key);
      const updated = await expectOk(res, apiKeySchema);
      expect(updated).toEqual({
        ...shown(key),
        name: `${key.name}-renamed`,
        text_permission: true,
        file_permission: true,
        mount_permission: true,
        expense_permission: true,
        basic_path: '/local/x',
        expires_at: expires,
      });
      expect(await find(key.id)).toEqual(updated);
    });

    it('changes only what is given', async () => {
      const updated = await expectOk(await put(key.id, { file_permission: true }), apiKeySchema);
      expect(updated).toEqual({ ...shown(key), file_permission: true });
    });

    it('clears the expiry with null', async () => {
      const future = new Date(t.clock.now().getTime() + HOUR).toISOString();
      await expectOk(await put(key.id, { expires_at: future }), apiKeySchema);
      const cleared = await expectOk(await put(key.id, { expires_at: null }), apiKeySchema);
      expect(cleared.expires_at).toBeNull();
      expect((await find(key.id))?.expires_at).toBeNull();
    });

    it('accepts the key keeping its own name', async () => {
      await expectOk(await put(key.id, { name: key.name }), apiKeySchema);
    });

    it('refuses another key’s name with 409', async () => {
      const other = await t.createKey(t.token);
      const body = await expectError(await put(key.id, { name: other.name }), 409);
      expect(body.data.field).toBe('name');
      expect((await find(key.id))?.name).toBe(key.name);
    });

    it('refuses a past expiry and bad values with 400', async () => {
      const past = new Date(t.clock.now().getTime() - 1).toISOString();
      expect((await expectError(await put(key.id, { expires_at: past }), 400)).data.field).toBe('expires_at');
      expect((await expectError(await put(key.id, { basic_path: '/a/../b' }), 400)).data.field).toBe('basic_path');
      expect((await expectError(await put(key.id, { name: '' }), 400)).data.field).toBe('name');
      expect((await expectError(await put(key.id, { basic_path: '/a//' }), 400)).data.field).toBe('basic_path');
      expect(await find(key.id)).toEqual(shown(key));
    });

    it('stores a base path given with a trailing slash without it', async () => {
      expect((await expectOk(await put(key.id, { basic_path: '/local/team/' }), apiKeySchema)).basic_path).toBe('/local/team');
      expect((await find(key.id))?.basic_path).toBe('/local/team');
      expect((await expectOk(await put(key.id, { basic_path: '/' }), apiKeySchema)).basic_path).toBe('/');
    });

    it('answers 404 for a missing key', async () => {
      const body = await expectError(await put('no-such-id', { name: 'x' }), 404);
      expect(body.data.error).toBe('not_found');
      expect(body.message).toBe('API key not found');
    });

    it('takes effect on the key’s next request', async () => {
      await expectOk(await put(key.id, { text_permission: true, basic_path: '/local' }), apiKeySchema);
      const me = await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
      expect(me.permissions).toEqual({ text: true, file: false, mount: false, expense: false });
      expect(me.basic_path).toBe('/local');
    });
  });

  describe('delete', () => {
    it('deletes the key; the key stops working; a second delete is 404', async () => {
      const key = await t.createKey(t.token);
      await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);

      const res = await t.request(`/api/admin/api-keys/${key.id}`, { method: 'DELETE', token: t.token });
      expect(await expectOk(res, v.null())).toBeNull();
      expect(await find(key.id)).toBeUndefined();

      const refused = await expectError(await t.request('/api/test/api-key', { apiKey: key.key }), 401);
      expect(refused.data.error).toBe('api_key_invalid');

      const again = await expectError(await t.request(`/api/admin/api-keys/${key.id}`, { method: 'DELETE', token: t.token }), 404);
      expect(again.data.error).toBe('not_found');
    });

    it('deletes only the key named', async () => {
      const [a, b] = [await t.createKey(t.token), await t.createKey(t.token)];
      await expectOk(await t.request(`/api/admin/api-keys/${a.id}`, { method: 'DELETE', token: t.token }), v.null());
      expect(await find(b.id)).toEqual(shown(b));
    });
  });

  describe('who may manage keys', () => {
    it('answers 401 to anonymous callers', async () => {
      await expectError(await t.request('/api/admin/api-keys'), 401);
      await expectError(await t.request('/api/admin/api-keys', { json: { name: 'anon' } }), 401);
      await expectError(await t.request('/api/admin/api-keys/x', { method: 'DELETE' }), 401);
    });

    it('answers 403 to an API key, even one with every permission', async () => {
      const key = await t.createKey(t.token, { text_permission: true, file_permission: true, mount_permission: true });
      const calls: [string, Parameters<TestApp['request']>[1]][] = [
        ['/api/admin/api-keys', {}],
        ['/api/admin/api-keys', { json: { name: 'by-key' } }],
        [`/api/admin/api-keys/${key.id}`, { method: 'PUT', json: { name: 'hijacked' } }],
        [`/api/admin/api-keys/${key.id}`, { method: 'DELETE' }],
        ['/api/admin/check', {}],
        ['/api/admin/system-settings', {}],
      ];
      for (const [path, options] of calls) {
        const body = await expectError(await t.request(path, { ...options, apiKey: key.key }), 403);
        expect(body.data.error).toBe('forbidden');
        expect(body.message).toBe('Only an administrator can do this');
      }
      expect(await find(key.id)).toMatchObject({ name: key.name });
      expect((await list()).some((k) => k.name === 'by-key')).toBe(false);
    });
  });
});

describe('API key authentication', () => {
  const t = useTestApp({ perTest: true });

  it('GET /api/test/api-key answers name, base path, permissions and key_info', async () => {
    const expires = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const key = await t.createKey(t.token, {
      name: 'tester',
      text_permission: true,
      file_permission: false,
      mount_permission: true,
      basic_path: '/local/tester',
      expires_at: expires,
    });
    const me = await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
    expect(me).toEqual({
      name: 'tester',
      basic_path: '/local/tester',
      permissions: { text: true, file: false, mount: true, expense: false },
      key_info: { id: key.id, name: 'tester', basic_path: '/local/tester', expires_at: expires },
    });
  });

  it('accepts the scheme in any case', async () => {
    const key = await t.createKey(t.token);
    const res = await t.request('/api/test/api-key', { headers: { authorization: `apikey ${key.key}` } });
    await expectOk(res, apiKeyTestResponseSchema);
  });

  it('sets last_used when the key is used', async () => {
    const key = await t.createKey(t.token);
    expect(key.last_used).toBeNull();
    t.clock.advance(5 * MINUTE);
    const usedAt = t.clock.now().toISOString();
    await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
    t.clock.advance(MINUTE);
    const keys = await expectOk(await t.request('/api/admin/api-keys', { token: t.token }), apiKeyListSchema);
    expect(keys.find((k) => k.id === key.id)?.last_used).toBe(usedAt);
  });

  it('refuses an expired key with 401 api_key_invalid', async () => {
    const expires = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const key = await t.createKey(t.token, { expires_at: expires });
    t.clock.advance(HOUR - 1);
    await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
    t.clock.advance(1);
    const body = await expectError(await t.request('/api/test/api-key', { apiKey: key.key }), 401);
    expect(body.data.error).toBe('api_key_invalid');
    expect(body.message).toBe('API key invalid or expired');
  });

  it('enforces an expiry written with an hour-only offset', async () => {
    // The clock starts at 12:00Z; 14:00+01 is 13:00Z.
    const key = await t.createKey(t.token, { expires_at: '2030-01-15T14:00:00+01' });
    await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
    t.clock.advance(HOUR);
    await expectError(await t.request('/api/test/api-key', { apiKey: key.key }), 401);
  });

  it('does not record use of an expired key', async () => {
    const key = await t.createKey(t.token, { expires_at: new Date(t.clock.now().getTime() + MINUTE).toISOString() });
    t.clock.advance(2 * MINUTE);
    await expectError(await t.request('/api/test/api-key', { apiKey: key.key }), 401);
    const row = await t.db.selectFrom('api_keys').select('last_used').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.last_used).toBeNull();
  });

  it('accepts an expired key again once its expiry is moved into the future', async () => {
    const key = await t.createKey(t.token, { expires_at: new Date(t.clock.now().getTime() + MINUTE).toISOString() });
    t.clock.advance(2 * MINUTE);
    await expectError(await t.request('/api/test/api-key', { apiKey: key.key }), 401);
    const later = new Date(t.clock.now().getTime() + HOUR).toISOString();
    await expectOk(await t.request(`/api/admin/api-keys/${key.id}`, { method: 'PUT', token: t.token, json: { expires_at: later } }), apiKeySchema);
    await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
  });

  it('refuses an unknown key, a near miss and a missing key with 401 api_key_invalid', async () => {
    const key = await t.createKey(t.token);
    const nearMiss = key.key.slice(0, -1) + (key.key.endsWith('A') ? 'B' : 'A');
    for (const apiKey of ['unknown-key-123', nearMiss, key.key.toLowerCase() === key.key ? `${key.key}x` : key.key.toLowerCase()]) {
      const body = await expectError(await t.request('/api/test/api-key', { apiKey }), 401);
      expect(body.data.error).toBe('api_key_invalid');
    }
    const none = await expectError(await t.request('/api/test/api-key'), 401);
    expect(none.data.error).toBe('api_key_invalid');
  });

  it('refuses a deleted key everywhere with 401', async () => {
    const key = await t.createKey(t.token, { text_permission: true });
    await expectOk(await t.request(`/api/admin/api-keys/${key.id}`, { method: 'DELETE', token: t.token }), v.null());
    const body = await expectError(await t.request('/api/test/api-key', { apiKey: key.key }), 401);
    expect(body.data.error).toBe('api_key_invalid');
    // An admin route answers 401 (not 403) for a key that no longer exists.
    expect((await expectError(await t.request('/api/admin/api-keys', { apiKey: key.key }), 401)).data.error).toBe(
      'api_key_invalid',
    );
  });

  it('keeps working across the admin token expiring', async () => {
    const key = await t.createKey(t.token);
    t.clock.advance(48 * HOUR);
    await expectError(await t.request('/api/admin/api-keys', { token: t.token }), 401);
    await expectOk(await t.request('/api/test/api-key', { apiKey: key.key }), apiKeyTestResponseSchema);
  });
});
