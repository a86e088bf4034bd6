import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp, type ServedApp } from '../../tests/fixtures/serve-app';
import { mergedList, withDefaultHeaders } from './default-headers';

describe('mergedList', () => {
  it('adds names once, whatever their case, keeping the order they came in', () => {
    expect(mergedList(null, 'Origin')).toBe('Origin');
    expect(mergedList('', 'Origin')).toBe('Origin');
    expect(mergedList('Accept-Encoding', 'Origin')).toBe('Accept-Encoding, Origin');
    expect(mergedList('origin, Accept-Encoding', 'Origin, Cookie')).toBe('origin, Accept-Encoding, Cookie');
    expect(mergedList(' , Origin ,', 'Range')).toBe('Origin, Range');
  });
});

/** The names `Vary` lists, lower-cased and sorted: their order means nothing. */
const varyOf = (res: Response) => (res.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase()).sort();

/** Two middlewares' defaults around routes that set their own headers or none, answered both ways. */
function appWithDefaults() {
  const app = new Hono();
  app.use('*', (c, next) => withDefaultHeaders(c, next, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', Vary: 'Origin' }));
  app.use('*', (c, next) => withDefaultHeaders(c, next, { Vary: 'Accept-Encoding' }));
  app.get('/plain', (c) => c.json({ plain: true }));
  app.get('/own', (c) => c.body('mine', 200, { 'Cache-Control': 'private, no-cache', 'Content-Type': 'text/plain' }));
  app.get('/stream', (c) => c.body(new Blob(['streamed']).stream(), 200, { 'Content-Type': 'application/octet-stream' }));
  app.get('/fails', () => {
    throw new Error('the route failed');
  });
  app.onError((_error, c) => c.json({ failed: true }, 500));
  return app;
}

describe.each(['app.request', 'HTTP'] as const)('withDefaultHeaders (%s)', (via) => {
  const app = appWithDefaults();
  let served: ServedApp | undefined;
  beforeAll(async () => {
    if (via === 'HTTP') served = await serveApp(app.fetch);
  });
  afterAll(async () => served?.close());
  const get = (path: string) => (served ? fetch(`${served.origin}${path}`) : Promise.resolve(app.request(path)));

  it('gives an answer without such headers the defaults, list headers merged across middlewares', async () => {
    const res = await get('/plain');
    expect(await res.json()).toEqual({ plain: true });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(varyOf(res)).toEqual(['accept-encoding', 'origin']);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it("keeps the route's own header over the default, and the rest of the defaults beside it", async () => {
    const res = await get('/own');
    expect(await res.text()).toBe('mine');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(varyOf(res)).toEqual(['accept-encoding', 'origin']);
  });

  it('gives them to streamed answers and to the error handler\'s answer', async () => {
    const streamed = await get('/stream');
    expect(await streamed.text()).toBe('streamed');
    expect(streamed.headers.get('cache-control')).toBe('no-store');
    const failed = await get('/fails');
    expect(failed.status).toBe(500);
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(varyOf(failed)).toEqual(['accept-encoding', 'origin']);
  });
});
