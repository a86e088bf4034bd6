import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef } from 'react';
import { userContentName } from '../../contract/user-content';
import { highlightCodeBlocks } from '../lib/markdown/highlight';
import { renderMarkdown, renderMarkdownNow } from '../lib/markdown/render';
import './markdown.css';

/** The text as it was written, when the sanitizer could not be loaded (offline on a browser without its own). */
function plainText(markdown: string): HTMLElement {
  const pre = document.createElement('pre');
  pre.textContent = markdown;
  return pre;
}

/**
 * The element of the paste that an address's `#name` stands for: the one named `user-content-name` (every id and
 * name of a paste is prefixed, contract/user-content.ts), or `user-content-` the name in lower case, as GitHub
 * finds it. The address keeps the name as the paste's link wrote it.
 */
function anchorTarget(root: HTMLElement, hash: string): Element | undefined {
  let name: string;
  try {
    name = decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return undefined;
  }
  if (!name) return undefined;
  const named = [...root.querySelectorAll('[id], a[name]')];
  for (const wanted of new Set([userContentName(name), userContentName(name.toLowerCase())])) {
    const found = named.find((element) => element.getAttribute('id') === wanted || (element.localName === 'a' && element.getAttribute('name') === wanted));
    if (found) return found;
  }
  return undefined;
}

interface MarkdownViewProps {
  markdown: string;
  /** The same text as HTML from the server (unsanitised): shown without parsing the Markdown here. */
  unsafeHtml?: string;
  className?: string;
  label?: string;
}

/** Sanitised Markdown; code is coloured after the text is on screen. */
export const MarkdownView = forwardRef<HTMLDivElement, MarkdownViewProps>(
  function MarkdownView({ markdown, unsafeHtml, className, label }, forwarded) {
    const element = useRef<HTMLDivElement>(null);
    useImperativeHandle(forwarded, () => element.current as HTMLDivElement);
    /** Whether the address's `#name` was followed: once, when the text first shows, not on every edit of it. */
    const followedAddress = useRef(false);
    // The nodes go in before the browser paints: a page whose Markdown was rendered ahead shows it in its first frame.
    useLayoutEffect(() => {
      const root = element.current;
      if (!root) return;
      let current = true;
      const show = (content: Node) => {
        if (!current) return;
        root.replaceChildren(content);
        highlightCodeBlocks(root);
        if (followedAddress.current) return;
        followedAddress.current = true;
        anchorTarget(root, window.location.hash)?.scrollIntoView();
      };
      const ready = renderMarkdownNow(markdown);
      if (ready) show(ready);
      else renderMarkdown(markdown, unsafeHtml).then(show, () => show(plainText(markdown)));
      return () => {
        current = false;
      };
    }, [markdown, unsafeHtml]);
    // A link to `#name` inside the paste is the browser's own fragment navigation (a history entry, the address
    // showing `#name`), which finds no element of that id: the paste's is `user-content-name`, taken to here. So
    // are back and forward between such places, and an address edited by hand.
    useEffect(() => {
      const root = element.current;
      if (!root) return;
      const follow = () => anchorTarget(root, window.location.hash)?.scrollIntoView();
      window.addEventListener('hashchange', follow);
      return () => window.removeEventListener('hashchange', follow);
    }, []);
    // Its children are sanitised nodes (src/lib/markdown/sanitize.ts), never a string of HTML: React renders none.
    return (
      <div
        ref={element}
        className={['markdown-body', className].filter(Boolean).join(' ')}
        aria-label={label}
        role={label ? 'region' : undefined}
      />
    );
  },
);
