import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loginResponseSchema } from '../contract/auth';
import { ERROR_REASONS } from '../contract/envelope';
import { healthSchema } from '../contract/system';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectError, expectOk, useTestApp } from '../tests/fixtures/test-app';

describe('the envelope', () => {
  const t = useTestApp();

  it('wraps a success as {code, message, data, success} with code equal to the status', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 200, message: 'OK', data: { status: 'ok' }, success: true });
  });

  it.each([
    ['GET', '/api/does-not-exist'],
    ['POST', '/api/admin/nothing-here'],
    ['GET', '/api/admin/api-keys/some-id/extra'],
    ['DELETE', '/api/health'],
    ['GET', '/api'],
  ])('answers %s %s with a 404 envelope', async (method, path) => {
    const body = await expectError(await t.request(path, { method, token: t.token }), 404);
    expect(body.data.error).toBe('not_found');
    expect(body.message).toBe('Not found');
  });

  it('answers a broken JSON body with 400, never 500', async () => {
    for (const [path, method] of [
      ['/api/admin/login', 'POST'],
      ['/api/admin/api-keys', 'POST'],
      ['/api/admin/system-settings', 'PUT'],
      ['/api/admin/change-password', 'POST'],
    ] as const) {
      const res = await t.request(path, {
        method,
        token: t.token,
        rawBody: '{"username": "admin", ',
        headers: { 'content-type': 'application/json' },
      });
      const body = await expectError(res, 400);
      expect(body.data).toMatchObject({ error: 'validation', field: 'body', issue: 'invalid_json' });
      expect(body.message).toBe('The request body is not valid JSON');
    }
  });

  it('refuses a JSON body over 11 MB with 413 before parsing it', async () => {
    const rawBody = JSON.stringify({ username: 'admin', password: 'x'.repeat(11 * 1024 * 1024 + 1) });
    const res = await t.request('/api/admin/login', { method: 'POST', rawBody, headers: { 'content-type': 'application/json' } });
    const body = await expectError(res, 413);
    expect(body.data.error).toBe('too_large');
    expect(body.message).toBe('The request body is larger than 11 MB');
  });

  it.each([
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a JSON string', '"admin"'],
  ])('answers %s where an object is expected with 400', async (_name, rawBody) => {
    const res = await t.request('/api/admin/login', { method: 'POST', rawBody, headers: { 'content-type': 'application/json' } });
    const body = await expectError(res, 400);
    expect(body.data.error).toBe('validation');
  });

  it('answers a body sent without a JSON content type with 400', async () => {
    const res = await t.request('/api/admin/login', {
      method: 'POST',
      rawBody: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
      headers: { 'content-type': 'text/plain' },
    });
    await expectError(res, 400);
  });

  it('puts a known reason in data.error of every error', async () => {
    const answers = [
      await t.request('/api/nope'),
      await t.request('/api/admin/check'),
      await t.request('/api/admin/login', { json: {} }),
    ];
    for (const res of answers) {
      const body = await expectError(res, res.status);
      expect(ERROR_REASONS).toContain(body.data.error);
    }
  });

  it('does not envelope paths outside /api', async () => {
    const res = await t.request('/not-the-api');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type') ?? '').not.toMatch(/json/);
  });
});

describe('message language', () => {
  const t = useTestApp({ login: false });

  const wrongLogin = (headers: Record<string, string> = {}) =>
    t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password: 'nope nope' }, headers });

  it('is English by default', async () => {
    expect((await expectError(await wrongLogin(), 401)).message).toBe('Wrong username or password');
    expect((await expectError(await t.request('/api/nope'), 404)).message).toBe('Not found');
  });

  it('is Chinese for Accept-Language: zh-CN, on errors and successes', async () => {
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };
    expect((await expectError(await wrongLogin(zh), 401)).message).toBe('用户名或密码错误');
    expect((await expectError(await t.request('/api/nope', { headers: zh }), 404)).message).toBe('未找到');
    const invalid = await expectError(
      await t.request('/api/admin/login', { method: 'POST', rawBody: '{', headers: { ...zh, 'content-type': 'application/json' } }),
      400,
    );
    expect(invalid.message).toBe('请求体不是有效的 JSON');

    const res = await t.request('/api/admin/login', { json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, headers: zh });
    const raw = (await res.clone().json()) as { message: string };
    await expectOk(res, loginResponseSchema);
    expect(raw.message).toBe('登录成功');
    const health = await t.request('/api/health', { headers: { 'accept-language': 'zh' } });
    expect(((await health.clone().json()) as { message: string }).message).toBe('成功');
    await expectOk(health, healthSchema);
  });

  it('fills field names into Chinese validation messages', async () => {
    const res = await t.request('/api/admin/login', { json: { username: '', password: 'x' }, headers: { 'accept-language': 'zh-CN' } });
    const body = await expectError(res, 400);
    expect(body.message).toContain('username');
    expect(body.message).toMatch(/值无效/);
  });

  it('stays English when English comes first', async () => {
    expect((await expectError(await wrongLogin({ 'accept-language': 'en-US,zh-CN;q=0.8' }), 401)).message).toBe(
      'Wrong username or password',
    );
    expect((await expectError(await wrongLogin({ 'accept-language': 'fr-FR' }), 401)).message).toBe(
      'Wrong username or password',
    );
  });
});

describe('the built app', () => {
  let root: string;
  const t = useTestApp({ login: false }, () => {
    root = mkdtempSync(join(tmpdir(), 'clipstash-spa-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/app-1.js"></script>');
    writeFileSync(join(root, 'assets', 'app-1.js'), 'console.log(1)');
    return { staticDir: root };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves hashed assets for a year, and a missing one as a 404 that is not kept', async () => {
    const asset = await t.request('/assets/app-1.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A chunk of another build: answering the page here would leave HTML cached under a script's URL.
    const missing = await t.request('/assets/app-2.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).not.toContain('html');
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('answers every route with the current index.html, always revalidated', async () => {
    const page = await t.request('/paste/some-slug');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('/assets/app-1.js');
    // A new build on disk is what the next navigation gets.
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/app-2.js"></script>');
    expect(await (await t.request('/upload')).text()).toContain('/assets/app-2.js');
  });
});
