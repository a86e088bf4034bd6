import { TrieRouter } from 'hono/router/trie-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../tests/fixtures/test-app';
import { SplitRouter, staticPrefix } from './router';

/** A URL that `path` matches: each parameter given a value (the segment after a static one also tried as a word). */
function sampleUrl(path: string, value: string): string {
  return path.replace(/:\w+(\{[^}]*\})?\??/g, value).replace(/\*$/, `${value}/deeper`);
}

/** Each router's answer in comparable form: the handlers (route numbers) in order, and their parameters. */
function matched(router: SplitRouter<number> | TrieRouter<number>, method: string, url: string) {
  const [handlers, stash] = router.match(method, url);
  // RegExpRouter answers each parameter as an index into `stash`, TrieRouter as its value.
  return handlers.map(([handler, params]) => [
    handler,
    Object.fromEntries(Object.entries(params).map(([name, value]) => [name, stash ? stash[value as number] : value])),
  ]);
}

/** A SplitRouter and a TrieRouter given the same routes, each numbered by its place. */
function bothRouters(routes: readonly (readonly [string, string])[]) {
  const router = new SplitRouter<number>();
  const trie = new TrieRouter<number>();
  routes.forEach(([method, path], index) => {
    router.add(method, path, index);
    trie.add(method, path, index);
  });
  return { router, trie };
}

function expectSameMatches({ router, trie }: ReturnType<typeof bothRouters>, requests: readonly (readonly [string, string])[]) {
  for (const [method, url] of requests) expect(matched(router, method, url), `${method} ${url}`).toEqual(matched(trie, method, url));
}

describe('SplitRouter', () => {
  it('matches a static route and a parameter beside it as Hono orders them, with the trie only under their prefix', () => {
    const routers = bothRouters([
      ['ALL', '*'],
      ['GET', '/api/health'],
      ['GET', '/api/jobs/events'],
      ['GET', '/api/jobs/:id'],
      ['POST', '/api/jobs/:id/cancel'],
      ['GET', '/api/paste/:slug'],
    ]);
    expectSameMatches(routers, [
      ['GET', '/api/jobs/events'],
      ['GET', '/api/jobs/j1'],
      ['POST', '/api/jobs/j1/cancel'],
      ['GET', '/api/paste/abc'],
      ['GET', '/api/health'],
      ['GET', '/elsewhere'],
    ]);
    const { router } = routers;
    expect(matched(router, 'GET', '/api/jobs/events').map(([handler]) => handler)).toEqual([0, 2, 3]);
    expect(router.usesTrieFor('/api/jobs/j1')).toBe(true);
    expect(router.usesTrieFor('/api/health')).toBe(false);
    expect(router.usesTrieFor('/api/paste/abc')).toBe(false);
  });

  it('takes a route for every method refused beside a static one, and still matches both', () => {
    const routers = bothRouters([
      ['GET', '/x/events'],
      ['ALL', '/x/:id'],
      ['POST', '/y'],
    ]);
    expectSameMatches(routers, [
      ['GET', '/x/events'],
      ['GET', '/x/7'],
      ['DELETE', '/x/7'],
      ['POST', '/y'],
    ]);
    expect(routers.router.usesTrieFor('/y')).toBe(false);
  });

  it('cuts a path at its first parameter or wildcard', () => {
    expect(staticPrefix('/api/jobs/:id/cancel')).toBe('/api/jobs/');
    expect(staticPrefix('/api/thumbnail*')).toBe('/api/thumbnail');
    expect(staticPrefix('/api/health')).toBe('/api/health');
  });
});

describe("the app's router", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('matches a URL of every route as TrieRouter does', () => {
    const routers = bothRouters(t.app.routes.map(({ method, path }) => [method, path] as const));
    const requests = t.app.routes.flatMap(({ method, path }) =>
      ['x1', 'events', 'categories'].flatMap((value) => (method === 'ALL' ? ['GET', 'POST'] : [method]).map((asked) => [asked, sampleUrl(path, value)] as const)),
    );
    expect(requests.length).toBeGreaterThan(1000);
    expectSameMatches(routers, requests);
  });

  it('reads pastes, files and health checks with RegExpRouter', () => {
    const router = (t.app as unknown as { router: SplitRouter<unknown> }).router;
    expect(router).toBeInstanceOf(SplitRouter);
    for (const url of ['/api/health', '/api/paste/abc', '/api/raw/abc', '/api/file-download/abc', '/api/admin/fs/list', '/dav/local/a.txt']) {
      expect(router.usesTrieFor(url), url).toBe(false);
    }
  });
});
