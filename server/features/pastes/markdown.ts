import { markdownToUnsafeHtml } from '../../../contract/markdown';

/** Renderings kept, most recently used last: a popular paste is rendered once per edit, not once per read. */
const CACHE_ENTRIES = 256;
/**
 * Longer texts are not rendered here: parsing a paste of megabytes would hold up every other request for as long
 * (the reader's browser parses it in a worker instead), and the cache stays a few megabytes at most.
 */
export const SERVER_RENDERED_MAX_CHARS = 64 * 1024;
const cache = new Map<string, { markdown: string; html: string }>();

/**
 * A paste's Markdown as HTML for its readers, so that a share's page renders without a Markdown parser of its
 * own; undefined for a text over SERVER_RENDERED_MAX_CHARS. NOT safe to show as it is: it holds whatever HTML the
 * text did, and the browser sanitises it before it shows it (src/lib/markdown/sanitize.ts). `key` names the text's
 * owner (a paste's id): its rendering is kept until the text changes.
 */
export function markdownHtml(markdown: string, key: string): string | undefined {
  if (markdown.length > SERVER_RENDERED_MAX_CHARS) return undefined;
  const cached = cache.get(key);
  cache.delete(key);
  if (cached?.markdown === markdown) {
    cache.set(key, cached);
    return cached.html;
  }
  const html = markdownToUnsafeHtml(markdown);
  cache.set(key, { markdown, html });
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return html;
}
