import { useEffect, useState } from 'react';
import { useLoadedActors, useSnapshotValue } from './actors';

/**
 * The browser says it is offline (the connectivity machine's `offline` tag): the "offline mode" badge. Before the
 * machine has loaded, the browser's word as it is now.
 */
export function useIsOffline(): boolean {
  const connectivity = useLoadedActors()?.connectivity;
  return useSnapshotValue(connectivity, (snapshot) => (snapshot ? snapshot.hasTag('offline') : !navigator.onLine));
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
