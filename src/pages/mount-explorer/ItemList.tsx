import { useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import type { FsItem } from '../../../contract/fs';
import type { ExplorerContext, ExplorerEvent, SortKey } from '../../../machines/explorer.machine';
import { formatBytes, formatDateTime } from '../../lib/format';
import { droppedFiles, type PickedFile } from './dropped-files';
import styles from './Explorer.module.css';
import { ItemIcon } from './item-icon';
import { Thumbnail } from './Thumbnail';

interface ItemListProps {
  items: FsItem[];
  context: ExplorerContext;
  send: (event: ExplorerEvent) => void;
  writable: boolean;
  onOpen: (item: FsItem) => void;
  onUp: () => void;
  /** Files dropped on the list (into the folder shown) or on a folder of it. */
  onDropFiles: (files: PickedFile[], into?: string) => void;
}

/**
 * The folder's items as one listbox (list or grid): the keyboard moves through it with the arrows, opens with
 * Enter, goes up with Backspace, deletes with Delete, renames with F2, selects with Space, Shift and Ctrl/Cmd+A.
 */
export function ItemList({ items, context, send, writable, onOpen, onUp, onDropFiles }: ItemListProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [dropTarget, setDropTarget] = useState<string>();
  const grid = context.view === 'grid';
  const focusedIndex = items.findIndex((item) => item.path === context.focused);
  const optionId = (index: number) => `${id}-item-${index}`;

  useEffect(() => {
    if (focusedIndex >= 0) document.getElementById(optionId(focusedIndex))?.scrollIntoView({ block: 'nearest' });
    // optionId only depends on id, which never changes.
  }, [focusedIndex]);

  const selectedPaths = () => (context.selection.length ? context.selection : context.focused ? [context.focused] : []);
  const onKeyDown = (event: KeyboardEvent) => {
    const focused = items[focusedIndex];
    const move = (by: number) => send({ type: 'focus.move', by, extend: event.shiftKey });
    const columns = grid ? gridColumns(box.current) : 1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(columns),
      ArrowUp: () => move(-columns),
      ArrowRight: () => move(grid ? 1 : 0),
      ArrowLeft: () => move(grid ? -1 : 0),
      Home: () => move(-items.length),
      End: () => move(items.length),
      Enter: () => focused && onOpen(focused),
      Backspace: onUp,
      Escape: () => send({ type: 'selection.clear' }),
      ' ': () => focused && send({ type: 'selection.click', path: focused.path, toggle: true }),
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
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const onClick = (event: MouseEvent, item: FsItem) => {
    send({ type: 'selection.click', path: item.path, toggle: event.ctrlKey || event.metaKey, range: event.shiftKey });
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

  return (
    <div
      className={[styles.listArea, dropTarget === '.' ? styles.dropping : ''].join(' ')}
      onDragOver={(event) => dragOver(event, '.')}
      onDragLeave={() => setDropTarget(undefined)}
      onDrop={(event) => void drop(event)}
    >
      {!grid && <SortHeader context={context} send={send} />}
      <div
        ref={box}
        id={`${id}-list`}
        role="listbox"
        aria-multiselectable="true"
        aria-label={t`Files and folders`}
        aria-activedescendant={focusedIndex >= 0 ? optionId(focusedIndex) : undefined}
        tabIndex={0}
        className={grid ? styles.grid : styles.list}
        onKeyDown={onKeyDown}
        onFocus={() => focusedIndex < 0 && items.length > 0 && send({ type: 'focus.set', path: items[0]!.path })}
      >
        {items.map((item, index) => {
          const selected = context.selection.includes(item.path);
          return (
            <div
              key={item.path}
              id={optionId(index)}
              role="option"
              aria-selected={selected}
              data-path={item.path}
              className={[
                grid ? styles.tile : styles.row,
                selected ? styles.selected : '',
                index === focusedIndex ? styles.focused : '',
                dropTarget === item.path ? styles.dropping : '',
              ].join(' ')}
              onClick={(event) => onClick(event, item)}
              onDoubleClick={() => onOpen(item)}
              onDragOver={item.isDirectory && !item.isVirtual ? (event) => dragOver(event, item.path) : undefined}
              onDrop={item.isDirectory && !item.isVirtual ? (event) => void drop(event, item.path) : undefined}
            >
              {grid ? (
                <>
                  <span className={styles.tileArt}>
                    {item.mimetype?.startsWith('image/') ? <Thumbnail item={item} /> : <ItemIcon item={item} size={40} />}
                  </span>
                  <span className={styles.name}>{item.name}</span>
                </>
              ) : (
                <>
                  <span className={styles.name}>
                    <ItemIcon item={item} />
                    {item.name}
                  </span>
                  {/* Read out as "name, size, date": the cells' text would otherwise run together. */}
                  <span className={styles.size}>
                    {!item.isDirectory && <span className="visually-hidden">, </span>}
                    {item.isDirectory ? '' : formatBytes(item.size)}
                  </span>
                  <span className={styles.modified}>
                    {item.modified && <span className="visually-hidden">, </span>}
                    {item.modified ? formatDateTime(item.modified, i18n.locale) : ''}
                  </span>
                </>
              )}
            </div>
          );
        })}
      </div>
      <p className={styles.hint}>{t`Double-click or Enter opens; Backspace goes up; drop files here to upload.`}</p>
    </div>
  );
}

/** How many tiles fit in a row of the grid, so that Up and Down move by rows. */
function gridColumns(grid: HTMLElement | null): number {
  if (!grid) return 1;
  const template = getComputedStyle(grid).gridTemplateColumns;
  return Math.max(1, template.split(' ').filter(Boolean).length);
}

function SortHeader({ context, send }: { context: ExplorerContext; send: (event: ExplorerEvent) => void }) {
  const { t } = useLingui();
  const columns: { key: SortKey; label: string; className: string }[] = [
    { key: 'name', label: t`Name`, className: styles.name! },
    { key: 'size', label: t`Size`, className: styles.size! },
    { key: 'modified', label: t`Modified`, className: styles.modified! },
  ];
  return (
    <div className={styles.sortHeader}>
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
