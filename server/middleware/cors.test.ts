import { beforeAll, describe, expect, it } from 'vitest';
import { createdPasteSchema } from '../../contract/pastes';
import { SHARE_PEEK_HEADERS } from '../../contract/share-peek';
import { expectError, expectOk, useTestApp } from '../../tests/fixtures/test-app';

const FRONTEND = 'https://front.example';
const STRANGER = 'https://evil.example';

const preflight = (origin: string, method = 'POST', headers = 'authorization, content-type') => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

/** The header's comma-separated names, lower-cased. */
const listOf = (res: Response, name: string) => (res.headers.get(name) ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);

describe('CORS for a frontend on another origin', () => {
  const t = useTestApp({ env: { CORS_ORIGINS: `${FRONTEND}, http://localhost:5173` } });
  let slug: string;

  beforeAll(async () => {
    slug = (await expectOk(await t.request('/api/paste', { token: t.token, json: { content: 'peek me' } }), createdPasteSchema, 201)).slug;
  });

  it.each(['/api/paste', '/api/admin/fs/upload', `/api/raw/some-slug`, '/api/file-download/some-slug', '/api/admin/fs/download'])(
    'answers a listed origin\'s preflight of %s with 204, its methods and headers, and credentials',
    async (path) => {
      const res = await t.request(path, preflight(FRONTEND));
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(FRONTEND);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(listOf(res, 'access-control-allow-methods')).toEqual(expect.arrayContaining(['get', 'head', 'post', 'put', 'delete']));
      expect(listOf(res, 'access-control-allow-headers')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'accept-language', 'range']));
      expect(listOf(res, 'vary')).toContain('origin');
      // The security headers and no-store stay as for any API answer.
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  );

  it.each([false, true])('names the listed origin on its answers, errors too, and exposes the headers a client reads (over HTTP: %s)', async (overHttp) => {
    for (const res of [
      await t.request('/api/health', { headers: { origin: FRONTEND }, overHttp }),
      await t.request('/api/admin/check', { headers: { origin: FRONTEND }, overHttp }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBe(FRONTEND);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(listOf(res, 'access-control-expose-headers')).toEqual(
        expect.arrayContaining(['content-disposition', 'etag', SHARE_PEEK_HEADERS.password.toLowerCase(), SHARE_PEEK_HEADERS.size.toLowerCase()]),
      );
      expect(listOf(res, 'vary')).toContain('origin');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    await expectError(await t.request('/api/admin/check', { headers: { origin: 'http://localhost:5173' } }), 401);
  });

  it('lets the listed origin read a share\'s peek headers', async () => {
    const res = await t.request(`/api/raw/${slug}`, { method: 'HEAD', headers: { origin: FRONTEND } });
    expect(res.status).toBe(200);
    expect(res.headers.get(SHARE_PEEK_HEADERS.size)).toBe('7');
    const exposed = listOf(res, 'access-control-expose-headers');
    expect(exposed).toContain(SHARE_PEEK_HEADERS.size.toLowerCase());
    expect(new Set(exposed).size).toBe(exposed.length);
  });

  it('refuses an unlisted origin\'s preflight with a 403 envelope and gives its requests no CORS headers', async () => {
    const refused = await t.request('/api/paste', preflight(STRANGER));
    const error = await expectError(refused, 403);
    expect(error.message).toContain(STRANGER);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();
    expect(listOf(refused, 'vary')).toContain('origin');

    const res = await t.request('/api/health', { headers: { origin: STRANGER } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listOf(res, 'vary')).toContain('origin');
  });

  it.each([false, true])('varies every API answer by Origin, with or without one, and leaves other OPTIONS as before (over HTTP: %s)', async (overHttp) => {
    expect(listOf(await t.request('/api/health', { overHttp }), 'vary')).toContain('origin');
    expect(listOf(await t.request('/api/nowhere', { overHttp }), 'vary')).toContain('origin');
    expect(listOf(await t.request(`/api/paste/${slug}`, { overHttp }), 'vary').sort()).toEqual(['accept-encoding', 'origin']);
    expect((await t.request('/api/paste', { method: 'OPTIONS', overHttp })).status).toBe(404);
  });

  it('keeps the LOCAL storage\'s signed URLs open to any origin without credentials, never * with them', async () => {
    const res = await t.request('/api/local-storage/some-config/some/key', preflight(FRONTEND, 'PUT', 'content-type'));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('CORS without CORS_ORIGINS (the default)', () => {
  const t = useTestApp({ login: false });

  it('allows no other origin', async () => {
    await expectError(await t.request('/api/paste', preflight(FRONTEND)), 403);
    const res = await t.request('/api/health', { headers: { origin: FRONTEND } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(listOf(res, 'vary')).toContain('origin');
  });
});
