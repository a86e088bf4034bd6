import { parseMarkdown } from './parse';
import { loadSanitizer } from './sanitize';

/** The last rendering: the render that shows a page's Markdown finds it done when renderMarkdown ran ahead. */
let last: { markdown: string; fragment: DocumentFragment } | undefined;

const copyOf = (fragment: DocumentFragment) => fragment.cloneNode(true) as DocumentFragment;

/**
 * Markdown (contract/markdown.ts) as nodes that are safe to insert (see sanitize.ts), a new copy each call. Every
 * rendering in the app goes through here. `unsafeHtml`, the same text as HTML from the server (a paste's
 * `contentHtml`), spares the parser; without it the text is parsed off the main thread (parse.ts).
 */
export async function renderMarkdown(markdown: string, unsafeHtml?: string): Promise<DocumentFragment> {
  if (last?.markdown === markdown) return copyOf(last.fragment);
  const [html, sanitize] = await Promise.all([unsafeHtml ?? parseMarkdown(markdown), loadSanitizer()]);
  last = { markdown, fragment: sanitize(html) };
  return copyOf(last.fragment);
}

/** renderMarkdown's result at once when `markdown` was the last one rendered; otherwise undefined. */
export function renderMarkdownNow(markdown: string): DocumentFragment | undefined {
  return last?.markdown === markdown ? copyOf(last.fragment) : undefined;
}

function inContainer(fragment: DocumentFragment): HTMLElement {
  const container = document.createElement('div');
  container.append(fragment);
  return container;
}

/** The sanitised HTML as text: for "copy as HTML". */
export async function markdownToHtml(markdown: string): Promise<string> {
  return inContainer(await renderMarkdown(markdown)).innerHTML;
}

/** The text a reader sees, without markup: for "copy as plain text". */
export async function markdownToPlainText(markdown: string): Promise<string> {
  const container = inContainer(await renderMarkdown(markdown));
  return (container.innerText || container.textContent || '').trim();
}
