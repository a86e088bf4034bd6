import type { ServerResponse } from 'node:http';
import type { Context, Next } from 'hono';

/** Node's response under Hono's, when @hono/node-server serves the request; undefined under `app.request`. */
function nodeResponseOf(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return typeof outgoing?.setHeader === 'function' ? outgoing : undefined;
}

/** Headers that list values (`Vary`): a default adds its names to those already there instead of replacing them. */
const LIST_HEADERS = new Set(['vary']);

/** `names` added to a comma-separated list, each name once (compared without case). */
export function mergedList(present: string | null | undefined, names: string): string {
  // Most answers have no such header yet: splitting and rejoining cost every API answer a few microseconds.
  if (!present) return names;
  const seen = new Map<string, string>();
  for (const item of `${present},${names}`.split(',')) {
    const trimmed = item.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()].join(', ');
}

/**
 * Runs the rest of the chain with `defaults` as headers of its answer, each where the route sets none of that name.
 * Served by Node, they go to Node's response before the route runs: Node puts the route's own headers over them as
 * it writes the head, so the answer's web `Headers` (undici validates every name and value, and sorts them again for
 * Node) is never made nor read. A route's own list header replaces the default; under `/api` none sets one. Under
 * `app.request` they are added to the answer afterwards, list headers merged.
 */
export async function withDefaultHeaders(c: Context, next: Next, defaults: Readonly<Record<string, string>>): Promise<void> {
  const node = nodeResponseOf(c);
  if (node && !node.headersSent) {
    for (const name in defaults) {
      const value = defaults[name] as string;
      node.setHeader(name, LIST_HEADERS.has(name.toLowerCase()) ? mergedList(node.getHeader(name) as string | undefined, value) : value);
    }
    await next();
    return;
  }
  await next();
  const headers = c.res.headers;
  for (const name in defaults) {
    const value = defaults[name] as string;
    if (LIST_HEADERS.has(name.toLowerCase())) headers.set(name, mergedList(headers.get(name), value));
    else if (!headers.has(name)) headers.set(name, value);
  }
}
