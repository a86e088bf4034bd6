import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { itemWindow, pageStep, scrollToReveal, type ItemWindow, type RowLayout } from '../../lib/windowing';

/** Folders up to this size draw every item (long names wrap in full); larger ones only what is in view. */
export const WINDOW_FROM = 300;
/** Rows drawn above and below the view, so that a quick scroll shows no gap. */
const OVERSCAN = 6;
/** Row heights until the first rows are measured: a list row and a grid tile with its gap, at 16 px to the rem. */
const GUESS = { list: 41, grid: 150 };

interface View {
  layout: RowLayout;
  /** Where the first row's top is, in px from the top of the browser's viewport. */
  origin: number;
  /** The part of the viewport the list's box shows. */
  top: number;
  bottom: number;
}

/**
 * The items of `box` (a listbox of `count` options, a list or a CSS grid) that are drawn: in a large folder only
 * the rows in view, whether the box scrolls itself or the page scrolls it (the phone's layout). Options carry
 * `data-index`; rows must all be one height, which the drawn ones tell.
 */
export function useItemWindow(box: RefObject<HTMLElement | null>, count: number, grid: boolean) {
  const windowed = count > WINDOW_FROM;
  const layout = useRef<RowLayout>({ count, columns: 1, rowHeight: grid ? GUESS.grid : GUESS.list });
  layout.current.count = count;
  // Until the rows are measured (in the next frame), the list rows a screen holds, so that the first draw costs no
  // more than it must; a grid's columns are not known yet, so it draws a few rows of a wide one.
  const [drawn, setDrawn] = useState<ItemWindow>(() => {
    const first = grid ? 40 : Math.ceil(window.innerHeight / GUESS.list) + OVERSCAN;
    return { start: 0, end: windowed ? Math.min(count, first) : count, padTop: 0, padBottom: 0 };
  });

  /** Measures the box and its drawn rows as they stand now. */
  const view = useCallback((): View | undefined => {
    const element = box.current;
    if (!element) return undefined;
    const options = element.querySelectorAll<HTMLElement>('[role="option"]');
    const first = options[0];
    const last = options[options.length - 1];
    const columns = grid ? gridColumns(element) : 1;
    const current = layout.current;
    current.columns = columns;
    const rowOf = (option: HTMLElement | undefined) => Math.floor(Number(option?.dataset.index ?? 0) / columns);
    const firstRow = rowOf(first);
    const rowsApart = rowOf(last) - firstRow;
    if (first && last && rowsApart > 0) current.rowHeight = (last.getBoundingClientRect().top - first.getBoundingClientRect().top) / rowsApart;
    const rect = element.getBoundingClientRect();
    const origin = first ? first.getBoundingClientRect().top - firstRow * current.rowHeight : rect.top;
    return { layout: { ...current }, origin, top: Math.max(rect.top, 0), bottom: Math.min(rect.bottom, window.innerHeight) };
  }, [box, grid]);

  const update = useCallback(() => {
    const now = windowed ? view() : undefined;
    if (!now) return;
    const next = itemWindow(now.layout, now.top - now.origin, now.bottom - now.origin, OVERSCAN);
    setDrawn((last) => (last.start === next.start && last.end === next.end && last.padTop === next.padTop && last.padBottom === next.padBottom ? last : next));
  }, [count, view, windowed]);

  // Measured after each change of what is drawn (the first rows tell the real row height) and of the count, in the
  // next frame: a measure in the commit would force the page's layout inside the task that drew the rows.
  const frame = useRef(0);
  const soon = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(update);
  }, [update]);
  useEffect(soon, [soon, drawn.start]);

  useEffect(() => {
    // Capture: the box's own scroll does not bubble, the page's is the window's.
    window.addEventListener('scroll', soon, { capture: true, passive: true });
    window.addEventListener('resize', soon);
    const resized = new ResizeObserver(soon);
    if (box.current) resized.observe(box.current);
    return () => {
      cancelAnimationFrame(frame.current);
      window.removeEventListener('scroll', soon, { capture: true });
      window.removeEventListener('resize', soon);
      resized.disconnect();
    };
  }, [box, soon]);

  /** Scrolls item `index` into view, drawn or not, by the box's own scroll or else the page's. */
  const reveal = useCallback(
    (index: number) => {
      const element = box.current;
      const now = view();
      if (!element || !now) return;
      const by = scrollToReveal(now.layout, index, now.top - now.origin, now.bottom - now.origin);
      if (by === 0) return;
      if (element.scrollHeight > element.clientHeight && getComputedStyle(element).overflowY !== 'visible') element.scrollTop += by;
      else window.scrollBy(0, by);
      update();
    },
    [box, update, view],
  );

  /** The items PageUp and PageDown move by. */
  const page = useCallback(() => {
    const now = view();
    return now ? pageStep(now.layout, now.bottom - now.top) : 1;
  }, [view]);

  return { windowed, drawn: windowed ? drawn : { start: 0, end: count, padTop: 0, padBottom: 0 }, reveal, page };
}

/** How many tiles fit in a row of the grid, so that Up and Down move by rows. */
export function gridColumns(grid: HTMLElement | null): number {
  if (!grid) return 1;
  const template = getComputedStyle(grid).gridTemplateColumns;
  return Math.max(1, template.split(' ').filter(Boolean).length);
}
