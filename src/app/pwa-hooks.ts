import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useAppActors } from './actors';

/** The browser says it is offline (the connectivity machine's `offline` tag): the "offline mode" badge. */
export function useIsOffline(): boolean {
  const { connectivity } = useAppActors();
  return useSelector(connectivity, (snapshot) => snapshot.hasTag('offline'));
}

/**
 * After a failed load: is the network gone? True when the browser says offline; otherwise the server is asked
 * (undefined meanwhile), because `navigator.onLine` also reads true on a network that leads nowhere.
 */
export function useNetworkUnavailable(): boolean | undefined {
  const offline = useIsOffline();
  const [unreachable, setUnreachable] = useState<boolean>();
  useEffect(() => {
    if (offline) return;
    let current = true;
    // /api is never answered by the service worker: any HTTP answer at all means the server is reachable.
    fetch('/api/health', { cache: 'no-store' }).then(
      () => current && setUnreachable(false),
      () => current && setUnreachable(true),
    );
    return () => {
      current = false;
    };
  }, [offline]);
  return offline || unreachable;
}
