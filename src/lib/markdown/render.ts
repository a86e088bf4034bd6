import DOMPurify from 'dompurify';
import { Marked } from 'marked';

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

/**
 * Markdown (GitHub-flavoured: tables, task lists, fenced code) to HTML that is safe to insert: no scripts,
 * no event handlers, no `javascript:` URLs, no SVG, no frames. Every rendering in the app goes through here.
 */
export function renderMarkdown(markdown: string): string {
  installHooks();
  const html = marked.parse(markdown) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'formaction'],
  });
}

/** The text a reader sees, without markup: for "copy as plain text". */
export function markdownToPlainText(markdown: string): string {
  const container = document.createElement('div');
  container.innerHTML = renderMarkdown(markdown);
  return (container.innerText || container.textContent || '').trim();
}
