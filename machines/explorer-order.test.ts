import { describe, expect, it } from 'vitest';
import type { FsItem } from '../contract/fs';
import { mergePage, sortItems, type ExplorerSort } from './explorer-order';

const item = (name: string, size: number, isDirectory = false): FsItem => ({
  name,
  path: `/local/${name}${isDirectory ? '/' : ''}`,
  isDirectory,
  isVirtual: false,
  size,
  modified: isDirectory ? null : `2026-01-${String((size % 28) + 1).padStart(2, '0')}`,
  mimetype: null,
  etag: null,
});

/** A folder of files and a few folders, their sizes and dates out of step with their names. */
const folder = Array.from({ length: 400 }, (_, index) => item(index % 50 === 0 ? `dir${index}` : `file${index}.txt`, (index * 37) % 101, index % 50 === 0));
const sorts: ExplorerSort[] = ['name', 'size', 'modified'].flatMap((key) =>
  (['asc', 'desc'] as const).map((direction) => ({ key: key as ExplorerSort['key'], direction })),
);

describe('merging the pages of a listing into the order shown', () => {
  it('gives the order of one sort of everything, whatever order the pages come in', () => {
    const shuffled = [...folder].sort((a, b) => ((a.size * 13) % 17) - ((b.size * 13) % 17) || (a.name < b.name ? -1 : 1));
    for (const sort of sorts) {
      let shown: FsItem[] = [];
      for (let start = 0; start < shuffled.length; start += 64) shown = mergePage(shown, shuffled.slice(start, start + 64), sort);
      expect(shown.map((entry) => entry.path), `${sort.key} ${sort.direction}`).toEqual(sortItems(folder, sort).map((entry) => entry.path));
    }
  });

  it('appends a page that comes after what is shown (the server\'s order), and leaves its inputs alone', () => {
    const sort: ExplorerSort = { key: 'name', direction: 'asc' };
    const ordered = sortItems(folder, sort);
    const first = ordered.slice(0, 100);
    const page = ordered.slice(100, 200);
    const merged = mergePage(first, page, sort);
    expect(merged).toEqual(ordered.slice(0, 200));
    expect(first).toHaveLength(100);
    expect(page).toEqual(ordered.slice(100, 200));
    expect(mergePage(first, [], sort)).toEqual(first);
    expect(mergePage(first, [], sort)).not.toBe(first);
  });

  it('puts folders first and numbers in names in their natural order', () => {
    const shown = mergePage([item('b', 0, true), item('a10.txt', 1)], [item('a9.txt', 2), item('a', 0, true)], { key: 'name', direction: 'asc' });
    expect(shown.map((entry) => entry.name)).toEqual(['a', 'b', 'a9.txt', 'a10.txt']);
  });
});
