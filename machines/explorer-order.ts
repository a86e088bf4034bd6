import type { FsItem } from '../contract/fs';

export type SortKey = 'name' | 'size' | 'modified';
export interface ExplorerSort {
  key: SortKey;
  direction: 'asc' | 'desc';
}

// One collator for every comparison: localeCompare with options builds a new one per call (seconds for 10,000 names).
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

const compareBy: Record<SortKey, (a: FsItem, b: FsItem) => number> = {
  name: (a, b) => collator.compare(a.name, b.name),
  size: (a, b) => a.size - b.size,
  modified: (a, b) => (a.modified ?? '').localeCompare(b.modified ?? ''),
};

/** The order items are shown in: folders first, then by the sort key (ties by name). */
export function itemOrder(sort: ExplorerSort): (a: FsItem, b: FsItem) => number {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return (a, b) => Number(b.isDirectory) - Number(a.isDirectory) || sign * compareBy[sort.key](a, b) || compareBy.name(a, b);
}

export const sortItems = (items: readonly FsItem[], sort: ExplorerSort): FsItem[] => [...items].sort(itemOrder(sort));

/** The first index from `from` whose item comes after `item` (equal ones stay before it). */
function insertionPoint(items: readonly FsItem[], item: FsItem, order: (a: FsItem, b: FsItem) => number, from: number): number {
  let low = from;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (order(items[middle]!, item) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `shown` (already in `sort`'s order) with a page's items merged in: the page is sorted on its own and each of its
 * items found by binary search, so a page costs its own sort and a copy, never a sort of everything listed so far.
 * A page that comes wholly after `shown` (the server's own order, the usual case) is an append.
 */
export function mergePage(shown: readonly FsItem[], page: readonly FsItem[], sort: ExplorerSort): FsItem[] {
  if (page.length === 0) return [...shown];
  const order = itemOrder(sort);
  const incoming = sortItems(page, sort);
  if (shown.length === 0 || order(shown[shown.length - 1]!, incoming[0]!) <= 0) return shown.concat(incoming);
  const merged: FsItem[] = [];
  let from = 0;
  for (const item of incoming) {
    const at = insertionPoint(shown, item, order, from);
    for (let index = from; index < at; index++) merged.push(shown[index]!);
    merged.push(item);
    from = at;
  }
  for (let index = from; index < shown.length; index++) merged.push(shown[index]!);
  return merged;
}
