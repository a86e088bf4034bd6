import { Marked } from 'marked';

/**
 * The Markdown dialect of the app: GitHub-flavoured (tables, task lists, fenced code, autolinks), a single line
 * break is no break. One parser for both sides: the server renders a paste's HTML for its readers with it
 * (server/services/markdown.ts), the browser its previews in a worker (src/lib/markdown/parse.ts), so both give
 * the same HTML for the same text.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Markdown to HTML that is NOT safe to show: it holds whatever HTML the text did. Sanitise it first. */
export function markdownToUnsafeHtml(markdown: string): string {
  return marked.parse(markdown) as string;
}
