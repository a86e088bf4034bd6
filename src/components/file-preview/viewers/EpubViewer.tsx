import { useLingui } from '@lingui/react/macro';
import ePub, { type Book, type NavItem, type Rendition } from 'epubjs';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../Button';
import { fieldStyles } from '../../Field';
import { PageSkeleton } from '../../PageSkeleton';
import { DOCUMENT_MAX_BYTES, fetchBytes } from './fetch-bytes';
import type { ViewerProps } from './types';
import { useLoaded } from './use-loaded';
import { ViewerFailure } from './ViewerFailure';
import styles from './Viewer.module.css';

/** A table of contents flattened, with each entry's depth for its indent. */
const flatten = (items: NavItem[], depth = 0): { href: string; label: string; depth: number }[] =>
  items.flatMap((item) => [{ href: item.href, label: item.label.trim(), depth }, ...flatten(item.subitems ?? [], depth + 1)]);

/**
 * An EPUB book, page by page, by epub.js. Its chapters render in iframes sandboxed without `allow-scripts`
 * (epub.js's `allowScriptedContent: false`), so a book's scripts never run; same-origin only so that epub.js can
 * lay the pages out.
 */
export default function EpubViewer({ src, downloadUrl, filename }: ViewerProps) {
  const { t } = useLingui();
  const frame = useRef<HTMLDivElement>(null);
  const rendition = useRef<Rendition>(null);
  const [state, setState] = useState<{ src: string; chapters?: ReturnType<typeof flatten>; error?: unknown }>();
  const [at, setAt] = useState<{ href: string; atStart: boolean; atEnd: boolean }>();
  const loaded = useLoaded(src, (signal) => fetchBytes(src, DOCUMENT_MAX_BYTES, signal));

  useEffect(() => {
    const target = frame.current;
    if (loaded.status !== 'ready' || !target) return;
    let current = true;
    const book: Book = ePub(loaded.data.buffer);
    // epub.js's first content hook (epub.js 0.3: replaceBase, then replaceCanonical and replaceMeta) gives each
    // chapter a <base> on this origin, which the page's CSP (base-uri 'none') refuses. A book read from its bytes
    // has its resources replaced with blob: URLs already: it needs no <base>.
    const [setBase] = book.spine.hooks.content.list() as ((...args: unknown[]) => unknown)[];
    if (setBase) book.spine.hooks.content.deregister(setBase);
    const view = book.renderTo(target, { width: '100%', height: '100%', flow: 'paginated', spread: 'none', allowScriptedContent: false });
    rendition.current = view;
    view.on('relocated', (location: { start: { href: string }; atStart?: boolean; atEnd?: boolean }) =>
      setAt({ href: location.start.href, atStart: Boolean(location.atStart), atEnd: Boolean(location.atEnd) }),
    );
    Promise.all([view.display(), book.loaded.navigation])
      .then(([, navigation]) => current && setState({ src, chapters: flatten(navigation.toc) }))
      .catch((error: unknown) => current && setState({ src, error }));
    return () => {
      current = false;
      rendition.current = null;
      book.destroy();
    };
  }, [loaded, src]);

  if (loaded.status === 'error') return <ViewerFailure error={loaded.error} downloadUrl={downloadUrl} />;
  if (state?.src === src && state.error !== undefined) return <ViewerFailure error={state.error} downloadUrl={downloadUrl} />;
  const chapters = state?.src === src ? state.chapters : undefined;
  const chapter = chapters?.find((candidate) => at && candidate.href.split('#')[0] === at.href.split('#')[0]);
  return (
    <>
      {!chapters && <PageSkeleton lines={8} />}
      <div
        ref={frame}
        // Laid out while hidden (epub.js measures it), where `hidden` would give it no size.
        className={`${styles.bookFrame} ${chapters ? '' : styles.pending}`}
        role="region"
        aria-label={t`Book ${filename}`}
        tabIndex={0}
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight') void rendition.current?.next();
          if (event.key === 'ArrowLeft') void rendition.current?.prev();
        }}
      />
      {chapters && (
        <div className={styles.controls}>
          <Button onClick={() => void rendition.current?.prev()} disabled={at?.atStart}>
            <ChevronLeft size={16} aria-hidden />
            {t`Previous page`}
          </Button>
          {chapters.length > 0 && (
            <select className={fieldStyles.control} aria-label={t`Chapter`} value={chapter?.href ?? ''} onChange={(event) => void rendition.current?.display(event.target.value)}>
              {!chapter && <option value="">{t`Chapters`}</option>}
              {chapters.map((candidate) => (
                <option key={candidate.href} value={candidate.href}>
                  {`${'  '.repeat(candidate.depth)}${candidate.label}`}
                </option>
              ))}
            </select>
          )}
          <Button onClick={() => void rendition.current?.next()} disabled={at?.atEnd}>
            {t`Next page`}
            <ChevronRight size={16} aria-hidden />
          </Button>
        </div>
      )}
    </>
  );
}
