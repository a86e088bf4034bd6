import * as Toast from '@radix-ui/react-toast';
import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { toasts } from '../lib/toast';
import { Button } from './Button';
import styles from './Toaster.module.css';

/**
 * The key that moves focus to the toasts (Radix's default), named in the viewport's translated label. The label
 * names it itself: Radix's {hotkey} placeholder would read as a Lingui placeholder.
 */
const HOTKEY = 'F8';

/** Renders the toast store; Radix announces each toast politely to screen readers. */
export function Toaster() {
  const { t } = useLingui();
  const items = useSyncExternalStore(toasts.subscribe, toasts.snapshot);
  return (
    <Toast.Provider swipeDirection="right" label={t`Notifications`}>
      {items.map((item) => (
        <Toast.Root
          key={item.id}
          className={`${styles.toast} ${styles[item.tone] ?? ''}`}
          duration={item.durationMs}
          type={item.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && toasts.dismiss(item.id)}
          data-tone={item.tone}
        >
          <Toast.Description className={styles.message}>{item.message}</Toast.Description>
          <Toast.Close asChild>
            <Button variant="ghost" size="small" aria-label={t`Dismiss`}>
              <X size={16} aria-hidden />
            </Button>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className={styles.viewport} hotkey={[HOTKEY]} label={t`Notifications (${HOTKEY})`} />
    </Toast.Provider>
  );
}
