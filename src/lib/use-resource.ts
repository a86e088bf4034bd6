import { useCallback, useEffect, useRef, useState } from 'react';
import { asRequestFailure, type RequestFailure } from '../../contract/envelope';

export type Resource<T> =
  | { status: 'loading'; data?: T; reload: () => void }
  | { status: 'ready'; data: T; reload: () => void }
  | { status: 'error'; error: RequestFailure; data?: T; reload: () => void };

/** Loads once on mount (and on reload); keeps the last data while reloading so lists do not flash. */
export function useResource<T>(load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<Omit<Resource<T>, 'reload'>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ status: 'loading', data: previous.data }));
    loadRef.current().then(
      (data) => mine === generation.current && setState({ status: 'ready', data }),
      (error: unknown) =>
        mine === generation.current &&
        setState((previous) => ({ status: 'error', error: asRequestFailure(error), data: previous.data })),
    );
  }, []);

  useEffect(() => {
    reload();
    return () => {
      generation.current++;
    };
  }, [reload]);

  return { ...state, reload } as Resource<T>;
}
