import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import Dexie from 'dexie';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, configureApiClient } from './api/client';
import { offlineCache, ownerOf } from './offline-cache';
import { OFFLINE_CACHE_MAX_AGE_MS, OFFLINE_DATABASE_VERSION, offlineSlot } from './offline-store';

const envelope = (data: unknown) => ({ code: 200, message: 'OK', data, success: true });
const json = (body: unknown, contentType = 'application/json; charset=UTF-8') =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': contentType } });

describe('offlineSlot: which store keeps which GET', () => {
  it('pastes and files by slug, directories by path, other business answers by request', () => {
    expect(offlineSlot('/paste/hello%20world')).toEqual({ store: 'pastes', key: 'hello world' });
    expect(offlineSlot('/public/files/report')).toEqual({ store: 'files', key: 'report' });
    expect(offlineSlot('/admin/fs/list?path=%2Flocal%2Fdocs')).toEqual({ store: 'directories', key: '/local/docs' });
    expect(offlineSlot('/user/fs/list')).toEqual({ store: 'directories', key: '/' });
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
    await offlineCache.store('/paste/a', 'public', 'application/json', envelope({}));
    const db = await new Dexie('clipstash-offline').open();
    expect(db.verno).toBe(OFFLINE_DATABASE_VERSION);
    expect(db.tables.map((table) => table.name).sort()).toEqual(['directories', 'files', 'pastes', 'settings']);
    const row = await db.table('pastes').get('a');
    expect(row).toMatchObject({ slug: 'a', cachedAt: Date.UTC(2026, 0, 1), owner: 'public', request: '/paste/a' });
    db.close();
  });

  it('answers a stored GET with a 200 for 7 days, then forgets it', async () => {
    await offlineCache.store('/paste/a', 'public', 'application/json', envelope({ slug: 'a' }));
    const answer = await offlineCache.answer('/paste/a', 'public');
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual(envelope({ slug: 'a' }));

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
    await offlineCache.store('/paste/mine', key, 'application/json', envelope({}));
    await offlineCache.store('/paste/public', 'public', 'application/json', envelope({}));
    await offlineCache.forgetSignedIn();
    expect(await offlineCache.answer('/user/pastes?limit=10', key)).toBeUndefined();
    expect(await offlineCache.answer('/paste/mine', key)).toBeUndefined();
    expect(await offlineCache.answer('/paste/public', 'public')).toBeDefined();
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
    vi.stubGlobal('fetch', async () => json(envelope({ slug: 'a', content: 'hello' })));
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

  it('does not keep failed answers', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 404, message: 'gone' }), { status: 404, headers: { 'content-type': 'application/json' } }));
    await expect(apiRequest('/paste/gone', { schema })).rejects.toMatchObject({ status: 404 });
    expect(await offlineCache.answer('/paste/gone', 'public')).toBeUndefined();
  });
});
