import { useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import type { FsItem } from '../../../contract/fs';
import type { ExplorerContext, ExplorerEvent, SortKey } from '../../../machines/explorer.machine';
import { droppedFiles, type PickedFile } from './dropped-files';
import styles from './Explorer.module.css';
import { ItemMenu } from './ItemMenu';
import { ItemRow, type RowEvents } from './ItemRow';
import { useSelectionActions, type ItemHandlers, type Selected } from './selection-actions';
import { COARSE_POINTER, useMediaQuery } from './use-media-query';
import { useLongPress } from './use-long-press';
import { gridColumns, useItemWindow } from './use-item-window';

interface ItemListProps {
  items: FsItem[];
  selected: Selected;
  context: ExplorerContext;
  writable: boolean;
  /** The actions of the toolbar, for the context menu. */
  handlers: ItemHandlers;
  onUp: () => void;
  /** Files dropped on the list (into the folder shown) or on a folder of it. */
  onDropFiles: (files: PickedFile[], into?: string) => void;
}

/**
 * The folder's items as one listbox (list or grid); in a large folder only the rows in view are drawn, each option
 * telling its place in the whole (aria-setsize, aria-posinset), while the keyboard, the selection and "select all"
 * work over every item. The keyboard moves through it with the arrows, PageUp/PageDown and Home/End, opens with
 * Enter, goes up with Backspace, deletes with Delete, renames with F2, selects with Space, Shift and Ctrl/Cmd+A,
 * and opens the context menu with the ContextMenu key or Shift+F10. A mouse selects with a click and opens with a
 * double-click; a finger opens with a tap, and selects with a long press or the item's tick box (then taps tick).
 */
export function ItemList({ items, selected: selection, context, writable, handlers, onUp, onDropFiles }: ItemListProps) {
  const { t } = useLingui();
  const { send, onOpen } = handlers;
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [dropTarget, setDropTarget] = useState<string>();
  const [menuAt, setMenuAt] = useState<{ x: number; y: number }>();
  const touchHint = useMediaQuery(COARSE_POINTER);
  /** The kind of pointer of the last press: a tap opens where a click selects. */
  const pointer = useRef('mouse');
  /** A press is under way: the focus it gives the list is not the keyboard's, so it moves no item into view. */
  const pressing = useRef(false);
  const grid = context.view === 'grid';
  const { windowed, drawn, reveal, page } = useItemWindow(box, items.length, grid);
  // While pages are coming the options tell the folder's size, not what has arrived: rows in view stay as drawn.
  const { listing } = context;
  const paging = listing?.nextOffset != null && !context.pageFailure;
  const setSize = paging ? Math.max(items.length, listing.total ?? 0) : items.length;
  const focusedIndex = useMemo(
    () => (context.focused === undefined ? -1 : items.findIndex((item) => item.path === context.focused)),
    [items, context.focused],
  );
  const optionId = (index: number) => `${id}-item-${index}`;
  const selectedItems = selection.items;
  const menuActions = useSelectionActions(selectedItems, handlers);
  const toggle = (item: FsItem) => send({ type: 'selection.click', path: item.path, toggle: true });
  const longPress = useLongPress(toggle);

  useEffect(() => {
    if (focusedIndex < 0) return;
    // A drawn item scrolls itself into view; one outside the window is scrolled to by its row, then drawn.
    const option = document.getElementById(optionId(focusedIndex));
    if (option) option.scrollIntoView({ block: 'nearest' });
    else reveal(focusedIndex);
    // optionId only depends on id, which never changes.
  }, [focusedIndex, reveal]);

  const selectedPaths = () => (context.selection.length ? context.selection : context.focused ? [context.focused] : []);
  /** The menu acts on the selection; an item outside it becomes the selection first, as file managers do. */
  const openMenu = (item: FsItem, at: { x: number; y: number }) => {
    if (!selection.has(item.path)) send({ type: 'selection.click', path: item.path });
    setMenuAt(at);
  };
  const closeMenu = useCallback(() => {
    setMenuAt(undefined);
    box.current?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    const focused = items[focusedIndex];
    const move = (by: number) => send({ type: 'focus.move', by, extend: event.shiftKey });
    const columns = grid ? gridColumns(box.current) : 1;
    const menuForFocused = () => {
      if (!focused) return;
      const row = document.getElementById(optionId(focusedIndex))?.getBoundingClientRect();
      openMenu(focused, row ? { x: row.left + 24, y: row.bottom } : { x: 0, y: 0 });
    };
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(columns),
      ArrowUp: () => move(-columns),
      ArrowRight: () => move(grid ? 1 : 0),
      ArrowLeft: () => move(grid ? -1 : 0),
      Home: () => move(-items.length),
      End: () => move(items.length),
      PageUp: () => move(-page()),
      PageDown: () => move(page()),
      Enter: () => focused && onOpen(focused),
      Backspace: onUp,
      Escape: () => send({ type: 'selection.clear' }),
      ' ': () => focused && toggle(focused),
      ContextMenu: menuForFocused,
      F2: () => {
        const path = selectedPaths();
        if (writable && path.length === 1) send({ type: 'dialog.open', dialog: { kind: 'rename', path: path[0]! } });
      },
      Delete: () => {
        const paths = selectedPaths();
        if (writable && paths.length) send({ type: 'dialog.open', dialog: { kind: 'delete', paths } });
      },
    };
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      send({ type: 'selection.all' });
      return;
    }
    const action = event.shiftKey && event.key === 'F10' ? menuForFocused : keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const onClick = (event: MouseEvent, item: FsItem) => {
    pressing.current = false;
    if (longPress.swallowClick()) return;
    if (pointer.current !== 'touch') {
      send({ type: 'selection.click', path: item.path, toggle: event.ctrlKey || event.metaKey, range: event.shiftKey });
      return;
    }
    // The second tap of a double tap lands on whatever the first one opened: it is not a tap of its own.
    if (event.detail > 1) return;
    if (context.selection.length > 0) toggle(item);
    else onOpen(item);
  };
  const onContextMenu = (event: MouseEvent, item: FsItem) => {
    event.preventDefault();
    // A finger's long press selects (useLongPress) rather than opening a menu.
    if (pointer.current === 'touch') return;
    openMenu(item, { x: event.clientX, y: event.clientY });
  };

  const drop = async (event: DragEvent, into?: string) => {
    event.preventDefault();
    event.stopPropagation();
    setDropTarget(undefined);
    if (!writable) return;
    onDropFiles(await droppedFiles(event.dataTransfer), into);
  };
  const dragOver = (event: DragEvent, target: string) => {
    if (!writable || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.stopPropagation();
    setDropTarget(target);
  };

  // The rows call the newest of these through one object that never changes, so that memoised rows stay as drawn.
  const latest = useRef({ onClick, onContextMenu, drop, dragOver, toggle, onOpen, longPress });
  latest.current = { onClick, onContextMenu, drop, dragOver, toggle, onOpen, longPress };
  const rowEvents = useMemo<RowEvents>(
    () => ({
      click: (event, item) => latest.current.onClick(event, item),
      doubleClick: (item) => pointer.current !== 'touch' && latest.current.onOpen(item),
      contextMenu: (event, item) => latest.current.onContextMenu(event, item),
      dragOver: (event, target) => latest.current.dragOver(event, target),
      drop: (event, into) => void latest.current.drop(event, into),
      tick: (item) => {
        pressing.current = false;
        if (!latest.current.longPress.swallowClick()) latest.current.toggle(item);
      },
      longPress: (item) => latest.current.longPress.handlers(item),
    }),
    [],
  );

  return (
    <div
      className={[styles.listArea, dropTarget === '.' ? styles.dropping : ''].join(' ')}
      onDragOver={(event) => dragOver(event, '.')}
      onDragLeave={() => setDropTarget(undefined)}
      onDrop={(event) => void drop(event)}
    >
      {!grid && <SortHeader context={context} send={send} count={items.length} />}
      <div
        ref={box}
        id={`${id}-list`}
        role="listbox"
        aria-multiselectable="true"
        aria-label={t`Files and folders`}
        aria-activedescendant={focusedIndex >= 0 ? optionId(focusedIndex) : undefined}
        tabIndex={0}
        className={[grid ? styles.grid : styles.list, windowed ? styles.windowed : ''].join(' ')}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          pointer.current = event.pointerType;
          pressing.current = true;
        }}
        onPointerCancel={() => (pressing.current = false)}
        // The ContextMenu key sends the browser's own menu to the list itself: ours is already open.
        onContextMenu={(event) => event.target === event.currentTarget && event.preventDefault()}
        onFocus={() => !pressing.current && focusedIndex < 0 && items.length > 0 && send({ type: 'focus.set', path: items[0]!.path })}
      >
        {/* The rows not drawn stand in as spacers, so that the scroll bar measures the whole folder. */}
        {drawn.padTop > 0 && <div aria-hidden className={styles.spacer} style={{ height: drawn.padTop }} />}
        {items.slice(drawn.start, drawn.end).map((item, offset) => {
          const index = drawn.start + offset;
          return (
            <ItemRow
              key={item.path}
              item={item}
              index={index}
              setSize={setSize}
              id={optionId(index)}
              grid={grid}
              windowed={windowed}
              selected={selection.has(item.path)}
              focused={index === focusedIndex}
              dropping={dropTarget === item.path}
              events={rowEvents}
            />
          );
        })}
        {drawn.padBottom > 0 && <div aria-hidden className={styles.spacer} style={{ height: drawn.padBottom }} />}
      </div>
      {menuAt && menuActions.length > 0 && (
        <ItemMenu
          at={menuAt}
          label={selectedItems.length === 1 ? t`Actions for ${selectedItems[0]!.name}` : t`Actions for ${selectedItems.length} items`}
          actions={menuActions}
          onClose={closeMenu}
        />
      )}
      <p className={styles.hint}>
        {touchHint
          ? t`Tap to open, long-press or tick to select.`
          : t`Double-click or Enter opens; right-click or Shift+F10 shows the actions; Backspace goes up; drop files here to upload.`}
      </p>
    </div>
  );
}

function SortHeader({ context, send, count }: { context: ExplorerContext; send: (event: ExplorerEvent) => void; count: number }) {
  const { t } = useLingui();
  const columns: { key: SortKey; label: string; className: string }[] = [
    { key: 'name', label: t`Name`, className: styles.name! },
    { key: 'size', label: t`Size`, className: styles.size! },
    { key: 'modified', label: t`Modified`, className: styles.modified! },
  ];
  const selected = context.selection.length;
  return (
    <div className={styles.sortHeader}>
      <label className={styles.tickCell}>
        <input
          type="checkbox"
          aria-label={t`Select all`}
          checked={selected > 0 && selected === count}
          ref={(input) => {
            if (input) input.indeterminate = selected > 0 && selected < count;
          }}
          onChange={(event) => send({ type: event.target.checked ? 'selection.all' : 'selection.clear' })}
        />
      </label>
      {columns.map((column) => {
        const active = context.sort.key === column.key;
        const Arrow = context.sort.direction === 'asc' ? ArrowUp : ArrowDown;
        return (
          <button
            key={column.key}
            type="button"
            className={column.className}
            aria-label={active ? (context.sort.direction === 'asc' ? t`Sorted by ${column.label}, ascending` : t`Sorted by ${column.label}, descending`) : t`Sort by ${column.label}`}
            onClick={() => send({ type: 'explorer.sort', key: column.key })}
          >
            {column.label}
            {active && <Arrow size={14} aria-hidden />}
          </button>
        );
      })}
    </div>
  );
}
