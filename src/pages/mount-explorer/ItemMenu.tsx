import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import styles from './Explorer.module.css';
import type { ItemAction } from './selection-actions';

interface ItemMenuProps {
  /** Where it opens: the pointer, or the focused row's corner for the keyboard. */
  at: { x: number; y: number };
  label: string;
  actions: ItemAction[];
  /** Closed without a choice (Escape, a click elsewhere, Tab): the caller puts the focus back. */
  onClose: () => void;
}

/**
 * The context menu of the items under it: the toolbar's actions, opened by a right-click, the ContextMenu key or
 * Shift+F10. The arrows, Home and End move through it, Enter runs an action, Escape closes it.
 */
export function ItemMenu({ at, label, actions, onClose }: ItemMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState(at);

  useLayoutEffect(() => {
    const element = menu.current;
    if (!element) return;
    // Kept inside the window: a menu opened near the right or bottom edge opens to the left or upwards.
    const { width, height } = element.getBoundingClientRect();
    setPosition({ x: Math.max(4, Math.min(at.x, innerWidth - width - 4)), y: Math.max(4, Math.min(at.y, innerHeight - height - 4)) });
    element.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [at]);

  useLayoutEffect(() => {
    const outside = (event: PointerEvent) => !menu.current?.contains(event.target as Node) && onClose();
    const away = () => onClose();
    addEventListener('pointerdown', outside, true);
    addEventListener('resize', away);
    addEventListener('scroll', away, true);
    return () => {
      removeEventListener('pointerdown', outside, true);
      removeEventListener('resize', away);
      removeEventListener('scroll', away, true);
    };
  }, [onClose]);

  const onKeyDown = (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => items[(index + items.length) % items.length]?.focus();
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(at + 1),
      ArrowUp: () => focus(at - 1),
      Home: () => focus(0),
      End: () => focus(items.length - 1),
      Escape: onClose,
      Tab: onClose,
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    action();
  };

  return createPortal(
    <div
      ref={menu}
      role="menu"
      aria-label={label}
      className={styles.menu}
      style={{ left: position.x, top: position.y }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {actions.map((action) => (
        <button
          key={action.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={action.danger ? styles.menuDanger : undefined}
          onClick={() => {
            onClose();
            action.run();
          }}
        >
          {action.icon}
          {action.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
