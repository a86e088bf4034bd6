import { useEffect, useState, type RefObject } from 'react';

export interface ScrollEdges {
  /** There is more to scroll to before the start (left). */
  start: boolean;
  /** There is more to scroll to past the end (right). */
  end: boolean;
}

/** Whether a sideways scroller has hidden content on either side, kept up as it scrolls or resizes. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ start: false, end: false });
  useEffect(() => {
    const scroller = ref.current;
    if (!scroller) return;
    const measure = () => {
      // A pixel of slack: zoom and fractional widths leave scrollLeft a hair short of the end.
      const start = scroller.scrollLeft > 1;
      const end = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
      setEdges((old) => (old.start === start && old.end === end ? old : { start, end }));
    };
    measure();
    scroller.addEventListener('scroll', measure, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', measure);
      resizes.disconnect();
    };
  }, [ref]);
  return edges;
}
