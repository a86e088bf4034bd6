import { forwardRef, useImperativeHandle, useLayoutEffect, useRef } from 'react';
import { highlightCodeBlocks } from '../lib/markdown/highlight';
import { renderMarkdown, renderMarkdownNow } from '../lib/markdown/render';
import './markdown.css';

/** The text as it was written, when the sanitizer could not be loaded (offline on a browser without its own). */
function plainText(markdown: string): HTMLElement {
  const pre = document.createElement('pre');
  pre.textContent = markdown;
  return pre;
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
    // The nodes go in before the browser paints: a page whose Markdown was rendered ahead shows it in its first frame.
    useLayoutEffect(() => {
      const root = element.current;
      if (!root) return;
      let current = true;
      const show = (content: Node) => {
        if (!current) return;
        root.replaceChildren(content);
        highlightCodeBlocks(root);
      };
      const ready = renderMarkdownNow(markdown);
      if (ready) show(ready);
      else renderMarkdown(markdown, unsafeHtml).then(show, () => show(plainText(markdown)));
      return () => {
        current = false;
      };
    }, [markdown, unsafeHtml]);
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
