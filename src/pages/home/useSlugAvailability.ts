import { useEffect, useState } from 'react';
import { slugProblem } from '../../../contract/slugs';
import { isPasteSlugAvailable } from '../../lib/api/pastes';

export type SlugAvailability = 'idle' | 'checking' | 'available' | 'taken';

/** Asks the server, 400 ms after typing stops, whether a well-formed custom slug is still free. */
export function useSlugAvailability(slug: string, enabled: boolean): SlugAvailability {
  const [state, setState] = useState<SlugAvailability>('idle');
  useEffect(() => {
    const wanted = slug.trim();
    if (!enabled || !wanted || slugProblem(wanted)) {
      setState('idle');
      return;
    }
    setState('checking');
    const controller = new AbortController();
    const timer = setTimeout(() => {
      isPasteSlugAvailable(wanted, controller.signal).then(
        (available) => setState(available ? 'available' : 'taken'),
        () => !controller.signal.aborted && setState('idle'),
      );
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [slug, enabled]);
  return state;
}
