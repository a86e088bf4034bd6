import { describe, expect, it } from 'vitest';
import { captureLog } from '../../tests/fixtures/log-capture';
import { CLOUDPASTE_PREFIX } from '../features/cloudpaste-compat/routes';
import { logRequest } from './log';
import { expectError, expectOk, useTestApp } from '../../tests/fixtures/test-app';
import { sql } from 'kysely';
import * as v from 'valibot';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request log', () => {
  const capture = captureLog();
  const t = useTestApp({ log: capture.log });
  const requestLines = () => capture.lines.filter((line) => line.msg === 'request');

  it('writes one line per request with its id, route pattern, status and duration, and answers the id', async () => {
    const before = requestLines().length;
    const res = await t.request('/api/paste/no-such-slug');
    await expectError(res, 404);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, reqId: id, method: 'GET', route: '/api/paste/:slug', status: 404 });
    expect(lines[0]?.ms).toEqual(expect.any(Number));
    expect(JSON.stringify(lines[0])).not.toContain('no-such-slug');
  });

  it.each([false, true])('answers the id its line carries, and one id for a request served again inside (over HTTP: %s)', async (overHttp) => {
    for (const path of ['/api/health', `${CLOUDPASTE_PREFIX}/api/health`]) {
      const before = requestLines().length;
      const res = await t.request(path, { overHttp });
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      // CloudPaste's face serves the request again through the app: both lines carry the answer's id.
      const lines = requestLines().slice(before);
      expect(lines.length).toBe(path === '/api/health' ? 1 : 2);
      for (const line of lines) expect(line.reqId).toBe(id);
    }
  });

  it('writes the line pino would write for the same fields', () => {
    const fields = { reqId: 'r-1', method: 'GET', route: '/api/paste/:slug', status: 200, ms: 1.5 };
    capture.log.info(fields, 'request');
    logRequest(capture.log, fields);
    const [byPino, byFastPath] = capture.lines.slice(-2);
    expect(byFastPath).toEqual({ ...byPino, time: byFastPath?.time });
    expect(Object.keys(byFastPath ?? {})).toEqual(Object.keys(byPino ?? {}));
  });

  it('keeps a valid incoming X-Request-Id and replaces one that is not a plain token', async () => {
    const kept = await t.request('/api/health', { headers: { 'X-Request-Id': 'lb-7f3a.91:2' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.91:2');
    expect(requestLines().at(-1)).toMatchObject({ reqId: 'lb-7f3a.91:2', route: '/api/health', status: 200 });
    for (const forged of ['a b', '{"level":60}', 'x'.repeat(129)]) {
      const res = await t.request('/api/health', { headers: { 'X-Request-Id': forged } });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expect(requestLines().at(-1)?.reqId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('logs no password, token, cookie, signature or share content', async () => {
    const content = 'Margarine-Zeppelin-4471 is the launch code';
    const token = await t.login();
    const created = await expectOk(
      await t.request('/api/paste', { token, json: { content, password: 'hunter2hunter2' } }),
      v.object({ slug: v.string() }),
      201,
    );
    await t.request(`/api/raw/${created.slug}?password=hunter2hunter2`, { headers: { cookie: 'session=cookie-secret-42' } });
    await t.request('/api/local-storage/upload/some/key?exp=1&sig=signature-secret-42', { method: 'PUT', body: 'x' });
    // An object logged whole (a request's headers, a body) is censored too, and an error quoting a signed URL.
    capture.log.error({ err: new Error('GET https://s3.example/b/k?X-Amz-Signature=signature-secret-42 failed') }, 'storage');
    capture.log.info({ req: { headers: { authorization: `Bearer ${token}`, cookie: 'session=cookie-secret-42' } }, password: 'hunter2hunter2', content });
    const text = capture.text();
    for (const secret of [token, 'hunter2hunter2', 'cookie-secret-42', 'signature-secret-42', 'Margarine', created.slug]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});

describe('request log of a failure', () => {
  const capture = captureLog();
  const t = useTestApp({ log: capture.log, login: false });

  it('logs the error with the id of its request; the client sees neither its message nor its stack', async () => {
    // A table gone under the app: the read fails with the database's own message.
    await sql`drop table system_settings`.execute(t.db);
    const res = await t.request('/api/system/max-upload-size');
    const body = await expectError(res, 500);
    expect(JSON.stringify(body)).not.toMatch(/system_settings|table|at /);
    const id = res.headers.get('x-request-id');
    const failure = capture.lines.find((line) => line.level === 50 && line.reqId === id);
    expect(failure).toMatchObject({ msg: 'GET /api/system/max-upload-size failed', err: { message: expect.stringContaining('system_settings') } });
    expect(capture.lines.at(-1)).toMatchObject({ msg: 'request', reqId: id, status: 500 });
  });
});
