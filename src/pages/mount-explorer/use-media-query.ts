import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; re-renders when that changes (a rotated phone, a docked tablet). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** A finger rather than a mouse: taps open, and the hints speak of tapping. */
export const COARSE_POINTER = '(pointer: coarse)';
/**
 * A phone's layout: one scroll, and the selection's actions in a bar at the bottom of the screen, where a thumb
 * reaches them and where they move nothing under the finger. Explorer.module.css uses the same query.
 */
export const COMPACT_LAYOUT = '(max-width: 48rem), (pointer: coarse)';
