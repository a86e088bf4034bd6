import { useLingui } from '@lingui/react/macro';
import { useState, type RefObject } from 'react';
import { Button } from '../../components/Button';
import { Dialog, dialogStyles } from '../../components/Dialog';
import { offlineCache } from '../../lib/offline-cache';
import { toasts } from '../../lib/toast';

export interface SettingsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The gear that opened it: the focus goes back there. */
  opener: RefObject<HTMLButtonElement | null>;
}

/** This browser's settings: for now, what it keeps for offline use and the way to forget it. */
export default function SettingsDialog({ open, onOpenChange, opener }: SettingsDialogProps) {
  const { t } = useLingui();
  const [clearing, setClearing] = useState(false);
  const clear = async () => {
    setClearing(true);
    try {
      await offlineCache.clear();
      toasts.success(t`Offline data cleared`);
      onOpenChange(false);
    } catch {
      toasts.error(t`Offline data could not be cleared, please try again`);
    } finally {
      setClearing(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t`Settings`} returnFocusTo={opener}>
      <section aria-labelledby="offline-data-heading">
        <h3 id="offline-data-heading">{t`Offline data`}</h3>
        <p id="offline-data-description">
          {t`Shares and lists opened here are kept in this browser for 7 days, so that they can be read without a network; a signed-in user's are forgotten at sign-out. Shares with a view limit (one-time ones too), a password or encryption are never kept.`}
        </p>
        <div className={dialogStyles.actions}>
          <Button variant="danger" aria-describedby="offline-data-description" disabled={clearing} onClick={() => void clear()}>
            {t`Clear offline data`}
          </Button>
        </div>
      </section>
    </Dialog>
  );
}
