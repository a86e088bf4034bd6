import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { highlightCodeBlocks } from '../lib/markdown/highlight';
import { renderMarkdown } from '../lib/markdown/render';
import './markdown.css';

/** Sanitised Markdown; code is coloured after the text is on screen. */
export const MarkdownView = forwardRef<HTMLDivElement, { markdown: string; className?: string; label?: string }>(
  function MarkdownView({ markdown, className, label }, forwarded) {
    const html = useMemo(() => renderMarkdown(markdown), [markdown]);
    const element = useRef<HTMLDivElement>(null);
    useImperativeHandle(forwarded, () => element.current as HTMLDivElement);
    useEffect(() => {
      if (element.current) highlightCodeBlocks(element.current);
    }, [html]);
    return (
      <div
        ref={element}
        className={['markdown-body', className].filter(Boolean).join(' ')}
        aria-label={label}
        role={label ? 'region' : undefined}
        // Safe: renderMarkdown sanitises with DOMPurify (no scripts, handlers, javascript: URLs, SVG or frames).
        dangerouslySetInnerHTML={{ __html: html }}
      />
    );
  },
);
