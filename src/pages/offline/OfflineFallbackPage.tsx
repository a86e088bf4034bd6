import { useLingui } from '@lingui/react/macro';
import { WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { toasts } from '../../lib/toast';

/** The toast comes 100 ms after the page and stays about 3 s. */
export const OFFLINE_TOAST_DELAY_MS = 100;
export const OFFLINE_TOAST_DURATION_MS = 3_000;

/**
 * Shown instead of a page whose code could not be loaded while offline (it was never opened online, so the
 * service worker has no copy). Not lazily loaded itself: it must be there when the network is not.
 */
export function OfflineFallbackPage() {
  const { t } = useLingui();
  const [, navigate] = useLocation();

  useEffect(() => {
    const timer = setTimeout(
      () => toasts.show('error', t`Page unavailable, check the network`, OFFLINE_TOAST_DURATION_MS),
      OFFLINE_TOAST_DELAY_MS,
    );
    return () => clearTimeout(timer);
    // Once per showing, in the language of that moment.
  }, []);

  return (
    <Notice
      icon={<WifiOff size={32} />}
      title={t`This page is temporarily unavailable`}
      actions={
        <>
          <Button variant="primary" onClick={() => navigate('/')}>
            {t`Back to home`}
          </Button>
          <Button onClick={() => window.history.back()}>{t`Back to previous page`}</Button>
          {/* A page whose code failed to load stays failed until the page reloads. */}
          <Button onClick={() => window.location.reload()}>{t`Retry`}</Button>
        </>
      }
    >
      {t`You are offline and this page has not been saved for offline use. Connect to the network and retry.`}
    </Notice>
  );
}
