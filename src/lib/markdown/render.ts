import { Marked } from 'marked';
import { nextTask } from '../idle';
import { loadSanitizer, readySanitizer, type Sanitize } from './sanitize';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** The last rendering, kept for renderMarkdownAhead and the renders that follow it. */
let last: { markdown: string; fragment: DocumentFragment } | undefined;

function render(markdown: string, sanitize: Sanitize): DocumentFragment {
  if (last?.markdown !== markdown) last = { markdown, fragment: sanitize(marked.parse(markdown) as string) };
  return last.fragment.cloneNode(true) as DocumentFragment;
}

/**
 * Markdown (GitHub-flavoured: tables, task lists, fenced code) as nodes that are safe to insert (see sanitize.ts),
 * a new copy each call. Every rendering in the app goes through here.
 */
export async function renderMarkdown(markdown: string): Promise<DocumentFragment> {
  return render(markdown, await loadSanitizer());
}

/** renderMarkdown's result at once, when the sanitizer is ready; otherwise undefined. */
export function renderMarkdownNow(markdown: string): DocumentFragment | undefined {
  const sanitize = readySanitizer();
  return sanitize && render(markdown, sanitize);
}

/**
 * Renders `markdown` for the render that shows it next, in tasks of its own: reading the text into tokens, turning
 * them into HTML and sanitising it each take tens of milliseconds the first time (V8 compiles marked's large rules
 * on their first use), which should neither add to the page's render nor make one long task together.
 */
export async function renderMarkdownAhead(markdown: string): Promise<void> {
  if (last?.markdown === markdown) return;
  const sanitize = await loadSanitizer();
  await nextTask();
  const tokens = marked.lexer(markdown);
  await nextTask();
  const unsafe = marked.parser(tokens);
  await nextTask();
  last = { markdown, fragment: sanitize(unsafe) };
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
