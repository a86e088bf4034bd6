import * as Toast from '@radix-ui/react-toast';
import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { toasts } from '../lib/toast';
import { Button } from './Button';
import styles from './Toaster.module.css';

/**
 * The key that moves focus to the toasts (Radix's default), named in the viewport's translated label. The label
 * names it itself: Radix's {hotkey} placeholder would read as a Lingui placeholder.
 */
const HOTKEY = 'F8';

/** What a person works with: the control last focused or pressed. */
const CONTROL = 'button, a[href], input, select, textarea, [tabindex], [contenteditable="true"]';

const overlaps = (a: DOMRect, top: number, bottom: number) => a.bottom > top && a.top < bottom;

/**
 * Toasts stack in the bottom corner, or in the top one when there they would cover the control the person is
 * using (the "Copy link" that raised "Link copied"): a toast must never hide what was just clicked.
 */
function usePlacementAwayFromControl(viewport: RefObject<HTMLOListElement | null>, count: number) {
  const [placement, setPlacement] = useState<'bottom' | 'top'>('bottom');
  const control = useRef<Element | null>(null);

  useEffect(() => {
    const note = (event: Event) => {
      const target = event.target instanceof Element ? event.target.closest(CONTROL) : null;
      if (target && !viewport.current?.contains(target)) control.current = target;
    };
    document.addEventListener('focusin', note);
    document.addEventListener('pointerdown', note, true);
    return () => {
      document.removeEventListener('focusin', note);
      document.removeEventListener('pointerdown', note, true);
    };
  }, [viewport]);

  useLayoutEffect(() => {
    const stack = viewport.current?.getBoundingClientRect();
    // The control noted, or the focused one: a toast raised before this component loaded came without either event.
    const focused = document.activeElement?.closest(CONTROL);
    const used = (control.current?.isConnected ? control.current : focused)?.getBoundingClientRect();
    if (!stack || !used || count === 0) return;
    const gap = stack.left > 0 ? window.innerWidth - stack.right : 0;
    const besideStack = used.right > stack.left && used.left < stack.right;
    const coversAtBottom = besideStack && overlaps(used, window.innerHeight - gap - stack.height, window.innerHeight);
    const headerBottom = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const coversAtTop = besideStack && overlaps(used, headerBottom, headerBottom + gap + stack.height);
    setPlacement(coversAtBottom && !coversAtTop ? 'top' : 'bottom');
  }, [viewport, count]);

  return placement;
}

/** Renders the toast store; Radix announces each toast politely to screen readers. */
export function Toaster() {
  const { t } = useLingui();
  const items = useSyncExternalStore(toasts.subscribe, toasts.snapshot);
  const viewport = useRef<HTMLOListElement>(null);
  const placement = usePlacementAwayFromControl(viewport, items.length);
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
      <Toast.Viewport
        ref={viewport}
        className={styles.viewport}
        data-placement={placement}
        hotkey={[HOTKEY]}
        label={t`Notifications (${HOTKEY})`}
      />
    </Toast.Provider>
  );
}
