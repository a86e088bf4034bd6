import { useLingui } from '@lingui/react/macro';
import { WifiOff } from 'lucide-react';
import { useIsOffline } from '../pwa-hooks';
import styles from './PwaPrompts.module.css';

/** "Offline mode" while the browser is offline. The live region stays mounted so that the change is announced. */
export function OfflineBadge() {
  const { t } = useLingui();
  const offline = useIsOffline();
  return (
    <div role="status" className={styles.badgeRegion}>
      {offline && (
        <span className={styles.badge} data-testid="offline-badge">
          <WifiOff size={15} aria-hidden />
          {t`Offline mode`}
        </span>
      )}
    </div>
  );
}
