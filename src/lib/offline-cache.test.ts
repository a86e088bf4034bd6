import { i18n } from '@lingui/core';
import Dexie from 'dexie';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, configureApiClient } from './api/client';
import { offlineCache, ownerOf } from './offline-cache';
import { mayKeepOffline, offlineSlot } from './offline-policy';
import { OFFLINE_CACHE_MAX_AGE_MS, OFFLINE_DATABASE_VERSION } from './offline-store';

const envelope = (data: unknown) => ({ code: 200, message: 'OK', data, success: true });
const json = (body: unknown, contentType = 'application/json; charset=UTF-8') =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': contentType } });

describe('offlineSlot: which store keeps which GET', () => {
  it('pastes and files by slug, directories by path, other business answers by request', () => {
    expect(offlineSlot('/paste/hello%20world')).toEqual({ store: 'pastes', key: 'hello world' });
    expect(offlineSlot('/public/files/report')).toEqual({ store: 'files', key: 'report' });
    expect(offlineSlot('/admin/fs/list?path=%2Flocal%2Fdocs')).toEqual({ store: 'directories', key: '/local/docs' });
    expect(offlineSlot('/user/fs/list')).toEqual({ store: 'directories', key: '/' });
    expect(offlineSlot('/admin/fs/list?path=%2Fbig&offset=0&limit=500')).toEqual({ store: 'directories', key: '/big' });
    expect(offlineSlot('/admin/fs/list?path=%2Fbig&offset=500&limit=5000')).toEqual({ store: 'directories', key: '/big\u0000500' });
    expect(offlineSlot('/admin/pastes?page=1&limit=10')).toEqual({ store: 'settings', key: 'api:/admin/pastes?page=1&limit=10' });
    expect(offlineSlot('/admin/s3-configs')).toEqual({ store: 'settings', key: 'api:/admin/s3-configs' });
  });

  it('skips system, health, version, checks, downloads, views, previews', () => {
    for (const path of [
      '/system/max-upload-size',
      '/health',
      '/version',
      '/test/admin-token',
      '/test/api-key',
      '/admin/check',
      '/admin/api-keys',
      '/slugs/paste/abc',
      '/raw/abc',
      '/url/info',
      '/file-download/abc',
      '/file-view/abc',
      '/office-preview/abc',
      '/admin/fs/preview?path=/a.pdf',
      '/user/fs/download?path=/a.zip',
    ]) {
      expect(offlineSlot(path), path).toBeUndefined();
    }
  });
});

/** A paste as GET /api/paste/{slug} answers it (contract/public-paste.ts): open unless changed. */
const paste = (changes: Record<string, unknown> = {}) =>
  envelope({
    slug: 'a',
    remark: null,
    expiresAt: null,
    maxViews: 0,
    views: 3,
    hasPassword: false,
    requiresPassword: false,
    encryption: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    content: 'the text',
    canEdit: false,
    ...changes,
  });
/** A file share as GET /api/public/files/{slug} answers it (contract/public-file.ts): open unless changed. */
const fileShare = (changes: Record<string, unknown> = {}) =>
  envelope({
    slug: 'f',
    filename: 'report.pdf',
    mimetype: 'application/pdf',
    size: 10,
    remark: null,
    created_at: '2026-01-01T00:00:00.000Z',
    views: 0,
    maxViews: 0,
    expiresAt: null,
    hasPassword: false,
    requires_password: false,
    previewUrl: 'https://app.test/api/file-view/f?token=t',
    canEdit: false,
    ...changes,
  });

describe('mayKeepOffline: only open shares are kept', () => {
  const pastes = { store: 'pastes', key: 'a' } as const;
  const files = { store: 'files', key: 'f' } as const;

  it('keeps an open paste and an open file share', () => {
    expect(mayKeepOffline(pastes, paste())).toBe(true);
    expect(mayKeepOffline(pastes, paste({ encryption: undefined }))).toBe(true); // stored before the field existed
    expect(mayKeepOffline(files, fileShare())).toBe(true);
  });

  it('never keeps a view-limited, password-protected or encrypted paste', () => {
    for (const changes of [
      { maxViews: 1, views: 0 },
      { maxViews: 5, views: 4 },
      { hasPassword: true },
      { hasPassword: true, requiresPassword: true, content: undefined },
      { encryption: 'aes-256-gcm' },
    ]) {
      expect(mayKeepOffline(pastes, paste(changes)), JSON.stringify(changes)).toBe(false);
    }
  });

  it('never keeps a view-limited or password-protected file share', () => {
    for (const changes of [{ maxViews: 1 }, { hasPassword: true }, { hasPassword: true, requires_password: true }]) {
      expect(mayKeepOffline(files, fileShare(changes)), JSON.stringify(changes)).toBe(false);
    }
  });

  it('keeps no share answer whose fields it cannot read', () => {
    expect(mayKeepOffline(pastes, envelope({ slug: 'a', content: 'x' }))).toBe(false);
    expect(mayKeepOffline(files, envelope(null))).toBe(false);
    expect(mayKeepOffline(pastes, undefined)).toBe(false);
  });

  it('keeps lists and listings as they are (each is kept for its own credential only)', () => {
    expect(mayKeepOffline({ store: 'settings', key: 'api:/admin/pastes' }, envelope([{ maxViews: 1, content: 'x' }]))).toBe(true);
    expect(mayKeepOffline({ store: 'directories', key: '/' }, envelope({ items: [] }))).toBe(true);
  });
});

describe('ownerOf', () => {
  it('tells credentials apart without writing them down', () => {
    expect(ownerOf({})).toBe('public');
    const admin = ownerOf({ adminToken: 'secret-token-1' });
    expect(admin).toMatch(/^admin:/);
    expect(admin).not.toContain('secret');
    expect(ownerOf({ adminToken: 'secret-token-2' })).not.toBe(admin);
    expect(ownerOf({ apiKey: 'secret-token-1' })).toMatch(/^key:/);
  });
});

describe('offline cache', () => {
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 1));
    await offlineCache.clear();
  });
  afterEach(() => vi.useRealTimers());

  it('is the Dexie database at version 2 with its four stores', async () => {
    await offlineCache.store('/paste/a', 'public', 'application/json', paste());
    const db = await new Dexie('clipstash-offline').open();
    expect(db.verno).toBe(OFFLINE_DATABASE_VERSION);
    expect(db.tables.map((table) => table.name).sort()).toEqual(['directories', 'files', 'pastes', 'settings']);
    const row = await db.table('pastes').get('a');
    expect(row).toMatchObject({ slug: 'a', cachedAt: Date.UTC(2026, 0, 1), owner: 'public', request: '/paste/a' });
    db.close();
  });

  it('answers a stored GET with a 200 for 7 days, then forgets it', async () => {
    await offlineCache.store('/paste/a', 'public', 'application/json', paste());
    const answer = await offlineCache.answer('/paste/a', 'public');
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual(paste());

    vi.setSystemTime(Date.UTC(2026, 0, 1) + OFFLINE_CACHE_MAX_AGE_MS - 1);
    expect(await offlineCache.answer('/paste/a', 'public')).toBeDefined();
    vi.setSystemTime(Date.UTC(2026, 0, 1) + OFFLINE_CACHE_MAX_AGE_MS);
    expect(await offlineCache.answer('/paste/a', 'public')).toBeUndefined();
  });

  it("never serves one credential's answer to another", async () => {
    const admin = ownerOf({ adminToken: 'T1' });
    await offlineCache.store('/admin/pastes?page=1', admin, 'application/json', envelope([]));
    expect(await offlineCache.answer('/admin/pastes?page=1', admin)).toBeDefined();
    expect(await offlineCache.answer('/admin/pastes?page=1', 'public')).toBeUndefined();
    expect(await offlineCache.answer('/admin/pastes?page=1', ownerOf({ adminToken: 'T2' }))).toBeUndefined();
  });

  it('forgets what signed-in users were answered, and keeps public answers', async () => {
    const key = ownerOf({ apiKey: 'K1' });
    await offlineCache.store('/user/pastes?limit=10', key, 'application/json', envelope([]));
    await offlineCache.store('/paste/mine', key, 'application/json', paste({ slug: 'mine' }));
    await offlineCache.store('/paste/public', 'public', 'application/json', paste({ slug: 'public' }));
    await offlineCache.forgetSignedIn();
    expect(await offlineCache.answer('/user/pastes?limit=10', key)).toBeUndefined();
    expect(await offlineCache.answer('/paste/mine', key)).toBeUndefined();
    expect(await offlineCache.answer('/paste/public', 'public')).toBeDefined();
  });

  it('never stores a private share, and a share that became private loses its old copy', async () => {
    await offlineCache.store('/paste/once', 'public', 'application/json', paste({ slug: 'once', maxViews: 1, views: 1 }));
    await offlineCache.store('/paste/locked', 'public', 'application/json', paste({ slug: 'locked', hasPassword: true }));
    await offlineCache.store('/paste/sealed', 'public', 'application/json', paste({ slug: 'sealed', encryption: 'aes-256-gcm' }));
    await offlineCache.store('/public/files/once', 'public', 'application/json', fileShare({ slug: 'once', maxViews: 1 }));
    const db = await new Dexie('clipstash-offline').open();
    expect(await db.table('pastes').count()).toBe(0);
    expect(await db.table('files').count()).toBe(0);

    await offlineCache.store('/paste/a', 'public', 'application/json', paste());
    expect(await db.table('pastes').get('a')).toBeDefined();
    await offlineCache.store('/paste/a', 'public', 'application/json', paste({ maxViews: 2 }));
    expect(await db.table('pastes').get('a')).toBeUndefined();
    db.close();
  });

  it('neither serves nor keeps a private share stored by an older version, whoever asks', async () => {
    const db = await new Dexie('clipstash-offline').open();
    const older = (slug: string, body: unknown, owner = 'public') => ({ slug, body, owner, cachedAt: Date.now(), request: `/paste/${slug}` });
    await db.table('pastes').bulkPut([
      older('once', paste({ slug: 'once', maxViews: 1, views: 1 })),
      older('mine', paste({ slug: 'mine', hasPassword: true, canEdit: true }), ownerOf({ adminToken: 'T1' })),
      older('open', paste({ slug: 'open' })),
    ]);
    await db.table('files').put({ slug: 'f', body: fileShare({ maxViews: 3 }), owner: 'public', cachedAt: Date.now(), request: '/public/files/f' });

    expect(await offlineCache.answer('/paste/once', 'public')).toBeUndefined();
    expect(await offlineCache.answer('/paste/mine', 'public')).toBeUndefined(); // not theirs, and removed all the same
    expect(await offlineCache.answer('/public/files/f', 'public')).toBeUndefined();
    expect(await offlineCache.answer('/paste/open', 'public')).toBeDefined();
    expect((await db.table('pastes').toArray()).map((row: { slug: string }) => row.slug)).toEqual(['open']);
    expect(await db.table('files').count()).toBe(0);
    db.close();
  });

  it('does not write an answer whose owner was forgotten while it waited to be stored', async () => {
    const key = ownerOf({ apiKey: 'K1' });
    const pending = [
      offlineCache.store('/user/pastes?limit=10', key, 'application/json', envelope([])),
      offlineCache.store('/paste/a', 'public', 'application/json', paste()),
    ];
    await offlineCache.forgetSignedIn();
    await Promise.all(pending);
    expect(await offlineCache.answer('/user/pastes?limit=10', key)).toBeUndefined();
    expect(await offlineCache.answer('/paste/a', 'public')).toBeDefined();

    const cleared = offlineCache.store('/paste/b', 'public', 'application/json', paste({ slug: 'b' }));
    await offlineCache.clear();
    await cleared;
    expect(await offlineCache.answer('/paste/b', 'public')).toBeUndefined();
    expect(await offlineCache.answer('/paste/a', 'public')).toBeUndefined();
  });

  it('keeps neither non-JSON answers nor skipped routes', async () => {
    await offlineCache.store('/paste/b', 'public', 'application/pdf', envelope({}));
    await offlineCache.store('/health', 'public', 'application/json', envelope({ status: 'ok' }));
    expect(await offlineCache.answer('/paste/b', 'public')).toBeUndefined();
    expect(await offlineCache.answer('/health', 'public')).toBeUndefined();
  });

  it('keeps one listing per directory and query', async () => {
    await offlineCache.store('/admin/fs/list?path=%2Fa', 'public', 'application/json', envelope(['x']));
    expect(await offlineCache.answer('/admin/fs/list?path=%2Fa', 'public')).toBeDefined();
    expect(await offlineCache.answer('/user/fs/list?path=%2Fa', 'public')).toBeUndefined();
  });
});

describe('api client with the offline cache', () => {
  const schema = v.object({ slug: v.string(), content: v.string() });

  beforeEach(async () => {
    i18n.loadAndActivate({ locale: 'en-US', messages: {} });
    vi.stubGlobal('window', { location: { origin: 'http://app.test' } });
    vi.stubGlobal('localStorage', { getItem: () => null });
    configureApiClient({
      credentials: () => ({}),
      language: () => 'en-US',
      onAdminTokenExpired: () => {},
      onApiKeyInvalid: () => {},
    });
    await offlineCache.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  const offline = () =>
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });

  it('stores a successful GET and serves it back when the network fails', async () => {
    vi.stubGlobal('fetch', async () => json(paste({ content: 'hello' })));
    await apiRequest('/paste/a', { schema });
    await vi.waitFor(async () => expect(await offlineCache.answer('/paste/a', 'public')).toBeDefined());

    offline();
    await expect(apiRequest('/paste/a', { schema })).resolves.toEqual({ slug: 'a', content: 'hello' });
  });

  it('still fails offline for what was never fetched, for writes, and for skipped routes', async () => {
    vi.stubGlobal('fetch', async () => json(envelope({ status: 'ok' })));
    await apiRequest('/health', { schema: v.unknown() });
    offline();
    const networkError = { reason: 'network', status: 0 };
    await expect(apiRequest('/paste/never', { schema })).rejects.toMatchObject(networkError);
    await expect(apiRequest('/health', { schema: v.unknown() })).rejects.toMatchObject(networkError);
    await expect(apiRequest('/paste', { method: 'POST', body: {}, schema: v.unknown() })).rejects.toMatchObject(networkError);
  });

  it('serves a view-limited paste read online nowhere offline', async () => {
    vi.stubGlobal('fetch', async () => json(paste({ slug: 'once', maxViews: 1, views: 1 })));
    await apiRequest('/paste/once', { schema });
    vi.stubGlobal('fetch', async () => json(paste({ slug: 'open' })));
    await apiRequest('/paste/open', { schema });
    // The open paste's write, stored after the limited one's, is the sign that both were handled.
    await vi.waitFor(async () => expect(await offlineCache.answer('/paste/open', 'public')).toBeDefined());

    offline();
    await expect(apiRequest('/paste/once', { schema })).rejects.toMatchObject({ reason: 'network', status: 0 });
  });

  it('does not keep an answer that arrives after the session it was asked in ended', async () => {
    let signedIn: { adminToken?: string } = { adminToken: 'T1' };
    configureApiClient({ credentials: () => signedIn, language: () => 'en-US', onAdminTokenExpired: () => {}, onApiKeyInvalid: () => {} });
    vi.stubGlobal('fetch', async () => {
      signedIn = {}; // signed out while the answer was on its way
      return json(envelope({ slug: 'a', content: 'mine' }));
    });
    await apiRequest('/admin/pastes/a', { schema });
    signedIn = { adminToken: 'T1' };
    vi.stubGlobal('fetch', async () => json(envelope({ slug: 'b', content: 'later' })));
    await apiRequest('/admin/pastes/b', { schema });
    const admin = ownerOf({ adminToken: 'T1' });
    await vi.waitFor(async () => expect(await offlineCache.answer('/admin/pastes/b', admin)).toBeDefined());
    expect(await offlineCache.answer('/admin/pastes/a', admin)).toBeUndefined();
  });

  it('does not keep failed answers', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 404, message: 'gone' }), { status: 404, headers: { 'content-type': 'application/json' } }));
    await expect(apiRequest('/paste/gone', { schema })).rejects.toMatchObject({ status: 404 });
    expect(await offlineCache.answer('/paste/gone', 'public')).toBeUndefined();
  });
});
