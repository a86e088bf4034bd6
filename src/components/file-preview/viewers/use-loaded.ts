import { useEffect, useRef, useState } from 'react';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

/**
 * Runs `load` when `key` changes and keeps its outcome; the error as thrown, so that a viewer can tell a file too
 * large or password-protected from a broken one. The signal aborts a load the page no longer shows.
 */
export function useLoaded<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; loaded: Loaded<T> }>({ key, loaded: { status: 'loading' } });
  // `load` is a new function each render; `key` says when it loads something else.
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState({ key, loaded: { status: 'loading' } });
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, loaded: { status: 'ready', data } }),
      (error: unknown) => !controller.signal.aborted && setState({ key, loaded: { status: 'error', error } }),
    );
    return () => controller.abort();
  }, [key]);
  return state.key === key ? state.loaded : { status: 'loading' };
}
