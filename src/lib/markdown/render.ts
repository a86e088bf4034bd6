import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { nextTask } from '../idle';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Tags that could run code, load other pages, or post data; SVG and MathML are not allowed at all. */
const FORBIDDEN_TAGS = ['style', 'iframe', 'frame', 'object', 'embed', 'form', 'base', 'link', 'meta', 'script'];

let hooksInstalled = false;
function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Links leave the app in a new tab and cannot reach back through window.opener.
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
}

/** The last rendering, kept for renderMarkdownAhead. */
let last: { markdown: string; html: string } | undefined;

const sanitize = (html: string) => {
  installHooks();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'formaction'],
  });
};

/**
 * Markdown (GitHub-flavoured: tables, task lists, fenced code) to HTML that is safe to insert: no scripts,
 * no event handlers, no `javascript:` URLs, no SVG, no frames. Every rendering in the app goes through here.
 */
export function renderMarkdown(markdown: string): string {
  if (last?.markdown === markdown) return last.html;
  const html = sanitize(marked.parse(markdown) as string);
  last = { markdown, html };
  return html;
}

/**
 * Renders `markdown` for the render that shows it next, in tasks of its own: reading the text into tokens, turning
 * them into HTML and sanitising it each take tens of milliseconds the first time (V8 compiles marked's large rules
 * on their first use, DOMPurify sets itself up), which should neither add to the page's render nor make one long
 * task together.
 */
export async function renderMarkdownAhead(markdown: string): Promise<void> {
  if (last?.markdown === markdown) return;
  await nextTask();
  const tokens = marked.lexer(markdown);
  await nextTask();
  const unsafe = marked.parser(tokens);
  await nextTask();
  last = { markdown, html: sanitize(unsafe) };
}

/** The text a reader sees, without markup: for "copy as plain text". */
export function markdownToPlainText(markdown: string): string {
  const container = document.createElement('div');
  container.innerHTML = renderMarkdown(markdown);
  return (container.innerText || container.textContent || '').trim();
}
