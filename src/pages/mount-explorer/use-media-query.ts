import { useCallback, useMemo, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; re-renders when that changes (a rotated phone, a docked tablet). */
export function useMediaQuery(query: string): boolean {
  // One MediaQueryList per query: React reads the value twice a render, and a new list each time costs a style lookup.
  const list = useMemo(() => window.matchMedia(query), [query]);
  const subscribe = useCallback(
    (changed: () => void) => {
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [list],
  );
  return useSyncExternalStore(subscribe, () => list.matches);
}

/** A finger rather than a mouse: taps open, and the hints speak of tapping. */
export const COARSE_POINTER = '(pointer: coarse)';
/**
 * A phone's layout: one scroll, and the selection's actions in a bar at the bottom of the screen, where a thumb
 * reaches them and where they move nothing under the finger. Explorer.module.css uses the same query.
 */
export const COMPACT_LAYOUT = '(max-width: 48rem), (pointer: coarse)';
