import { useLingui } from '@lingui/react/macro';
import { Check } from 'lucide-react';
import { memo, type DragEvent, type MouseEvent, type PointerEvent } from 'react';
import type { FsItem } from '../../../contract/fs';
import { hasThumbnail } from '../../../contract/thumbnail-sizes';
import { BreakableName } from '../../components/BreakableName';
import { formatBytes, formatDateTime } from '../../lib/format';
import styles from './Explorer.module.css';
import { ItemIcon } from './item-icon';
import { Thumbnail } from './Thumbnail';

/** What a row does when pressed, dragged over or dropped on: one object for the list's life, so rows can be memoised. */
export interface RowEvents {
  click: (event: MouseEvent, item: FsItem) => void;
  doubleClick: (item: FsItem) => void;
  contextMenu: (event: MouseEvent, item: FsItem) => void;
  dragOver: (event: DragEvent, target: string) => void;
  drop: (event: DragEvent, into: string) => void;
  tick: (item: FsItem) => void;
  longPress: (item: FsItem) => {
    onPointerDown: (event: PointerEvent) => void;
    onPointerMove: (event: PointerEvent) => void;
    onPointerUp: () => void;
    onPointerCancel: () => void;
  };
}

interface ItemRowProps {
  item: FsItem;
  index: number;
  /** How many items the folder has (aria-setsize). */
  setSize: number;
  id: string;
  grid: boolean;
  windowed: boolean;
  selected: boolean;
  focused: boolean;
  dropping: boolean;
  events: RowEvents;
}

/**
 * One option of the explorer's listbox. Memoised: a page of a large folder arriving, or the keyboard moving, draws
 * again only the rows whose own props changed, not every row in view.
 */
export const ItemRow = memo(function ItemRow({ item, index, setSize, id, grid, windowed, selected, focused, dropping, events }: ItemRowProps) {
  const { t, i18n } = useLingui();
  const droppable = item.isDirectory && !item.isVirtual;
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      data-path={item.path}
      data-index={index}
      // A windowed name stays on one line (rows are one height): the whole of it shows on hover.
      title={windowed ? item.name : undefined}
      className={[grid ? styles.tile : styles.row, selected ? styles.selected : '', focused ? styles.focused : '', dropping ? styles.dropping : ''].join(' ')}
      {...events.longPress(item)}
      onClick={(event) => events.click(event, item)}
      onDoubleClick={() => events.doubleClick(item)}
      onContextMenu={(event) => events.contextMenu(event, item)}
      onDragOver={droppable ? (event) => events.dragOver(event, item.path) : undefined}
      onDrop={droppable ? (event) => events.drop(event, item.path) : undefined}
    >
      {/* The list's own keyboard selects (Space), so the tick box is for pointers and takes no focus. */}
      <span
        role="checkbox"
        aria-checked={selected}
        aria-label={t`Select ${item.name}`}
        className={styles.tick}
        onClick={(event) => {
          event.stopPropagation();
          events.tick(item);
        }}
        onDoubleClick={(event) => event.stopPropagation()}
      >
        <span className={styles.tickBox}>
          <Check size={14} strokeWidth={3} aria-hidden />
        </span>
      </span>
      {grid ? (
        <>
          <span className={styles.tileArt}>{hasThumbnail(item.mimetype) ? <Thumbnail item={item} /> : <ItemIcon item={item} size={40} />}</span>
          <span className={styles.name}>
            <BreakableName name={item.name} />
          </span>
        </>
      ) : (
        <>
          {/* Read out as "name, size, date": the cells' text would otherwise run together. */}
          <div className={styles.name}>
            <ItemIcon item={item} />
            <span>
              <BreakableName name={item.name} />
            </span>
          </div>
          <div className={styles.size}>
            {!item.isDirectory && <span className="visually-hidden">, </span>}
            {item.isDirectory ? '' : formatBytes(item.size)}
          </div>
          <div className={styles.modified}>
            {item.modified && <span className="visually-hidden">, </span>}
            {item.modified ? formatDateTime(item.modified, i18n.locale) : ''}
          </div>
        </>
      )}
    </div>
  );
});
