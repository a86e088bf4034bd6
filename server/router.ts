import { UnsupportedPathError, type Result, type Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';

/** The part of a route's path before its first parameter or wildcard: every URL the route matches starts with it. */
export function staticPrefix(path: string): string {
  const dynamic = path.search(/[:*]/);
  return dynamic === -1 ? path : path.slice(0, dynamic);
}

/**
 * Hono's RegExpRouter matches a request with one regular expression, but refuses a static segment beside a
 * parameter under one method (`GET /jobs/events` beside `GET /jobs/:id`). Hono's default router then matches every
 * request with TrieRouter, which on this app's 441 routes took 4–10 µs a request against RegExpRouter's 0.2–2
 * (bench/README.md, reads). This router keeps RegExpRouter for every request except those under the static prefix
 * of a route it refused: those go to a TrieRouter that holds every route, so they match as they always did.
 */
export class SplitRouter<T> implements Router<T> {
  readonly name = 'SplitRouter';
  private readonly regExp = new RegExpRouter<T>();
  private readonly trie = new TrieRouter<T>();
  /** Prefixes of the routes RegExpRouter refused; `''` (every request) once it failed to build. */
  private triePrefixes: string[] = [];

  add(method: string, path: string, handler: T): void {
    this.trie.add(method, path, handler);
    try {
      this.regExp.add(method, path, handler);
    } catch (error) {
      if (!(error instanceof UnsupportedPathError)) throw error;
      // What RegExpRouter kept of the refused route cannot answer a request: every URL the route may match is sent
      // to the trie. A refusal of another path (an earlier route for all methods, copied under a method seen for the
      // first time) leaves RegExpRouter's handlers unlike its paths: the trie then matches everything.
      this.triePrefixes.push(error.message === path ? staticPrefix(path) : '');
    }
  }

  match(method: string, path: string): Result<T> {
    if (this.usesTrieFor(path)) return this.trie.match(method, path);
    try {
      return this.regExp.match(method, path);
    } catch (error) {
      // RegExpRouter builds its expressions on the first match and may refuse the routes only then.
      if (!(error instanceof UnsupportedPathError)) throw error;
      this.triePrefixes = [''];
      return this.trie.match(method, path);
    }
  }

  /** Whether requests for `path` are matched by the trie. */
  usesTrieFor(path: string): boolean {
    return this.triePrefixes.some((prefix) => path.startsWith(prefix));
  }
}
