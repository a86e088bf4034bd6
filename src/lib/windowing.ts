/**
 * The maths of a windowed list or grid: which items are drawn for what is in view, how tall the space above and
 * below them stands, and how far to scroll to bring an item into view. Rows are all `rowHeight` px high (a grid's
 * row holds `columns` items); positions are in px from the top of the first row.
 */
export interface RowLayout {
  count: number;
  columns: number;
  rowHeight: number;
}

export interface ItemWindow {
  /** The first item drawn. */
  start: number;
  /** One past the last item drawn. */
  end: number;
  /** The height of the rows above the first drawn, and below the last. */
  padTop: number;
  padBottom: number;
}

const rowsOf = ({ count, columns }: RowLayout) => Math.ceil(count / Math.max(1, columns));

/** The items of the rows that meet [viewTop, viewBottom), and `overscan` rows either side. */
export function itemWindow(layout: RowLayout, viewTop: number, viewBottom: number, overscan: number): ItemWindow {
  const rows = rowsOf(layout);
  const columns = Math.max(1, layout.columns);
  const clamp = (row: number) => Math.min(rows, Math.max(0, row));
  let firstRow = clamp(Math.floor(viewTop / layout.rowHeight) - overscan);
  let endRow = clamp(Math.ceil(viewBottom / layout.rowHeight) + overscan);
  // A view scrolled past the rows (a folder that shrank) still draws its last rows rather than none.
  if (endRow <= firstRow) {
    endRow = rows;
    firstRow = clamp(rows - 2 * overscan - 1);
  }
  return {
    start: firstRow * columns,
    end: Math.min(layout.count, endRow * columns),
    padTop: firstRow * layout.rowHeight,
    padBottom: (rows - endRow) * layout.rowHeight,
  };
}

/** How far to scroll (px, up is negative) so that item `index` is wholly in [viewTop, viewBottom); 0 when it is. */
export function scrollToReveal(layout: RowLayout, index: number, viewTop: number, viewBottom: number): number {
  const top = Math.floor(index / Math.max(1, layout.columns)) * layout.rowHeight;
  const bottom = top + layout.rowHeight;
  if (top < viewTop) return top - viewTop;
  if (bottom > viewBottom) return Math.min(top - viewTop, bottom - viewBottom);
  return 0;
}

/** The items PageUp and PageDown move by: the whole rows that fit in the view, at least one. */
export function pageStep(layout: RowLayout, viewHeight: number): number {
  return Math.max(1, Math.floor(viewHeight / layout.rowHeight)) * Math.max(1, layout.columns);
}
