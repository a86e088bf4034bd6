import { useState, type ReactNode } from 'react';
import { itemWindow } from '../lib/windowing';
import styles from './VirtualList.module.css';

/** Rows drawn above and below the visible ones, so that a quick scroll shows no gap. */
const OVERSCAN = 8;

interface VirtualListProps<T> {
  items: readonly T[];
  /** Each row's height in px: rows are one line high (long text ends in an ellipsis). */
  rowHeight: number;
  /** The most the list takes up, in px; it scrolls past that. */
  maxHeight: number;
  /** Names the list for assistive technology (it is a scrollable region). */
  label: string;
  itemKey: (item: T, index: number) => string;
  children: (item: T) => ReactNode;
}

/**
 * A long list that stays fast: only the rows in view (and a few around them) are in the page, so 10,000 entries
 * cost what 30 do. Each row says its place in the whole list to screen readers.
 */
export function VirtualList<T>({ items, rowHeight, maxHeight, label, itemKey, children }: VirtualListProps<T>) {
  const [scrollTop, setScrollTop] = useState(0);
  const height = Math.min(maxHeight, items.length * rowHeight);
  const { start: first, end: last } = itemWindow({ count: items.length, columns: 1, rowHeight }, scrollTop, scrollTop + height, OVERSCAN);
  return (
    <div className={styles.viewport} style={{ height }} tabIndex={0} role="region" aria-label={label} onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
      <ul className={styles.rows} style={{ height: items.length * rowHeight }} aria-label={label}>
        {items.slice(first, last).map((item, offset) => {
          const index = first + offset;
          return (
            <li key={itemKey(item, index)} className={styles.row} style={{ top: index * rowHeight, height: rowHeight, lineHeight: `${rowHeight}px` }} aria-setsize={items.length} aria-posinset={index + 1}>
              {children(item)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
