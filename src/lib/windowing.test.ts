import { describe, expect, it } from 'vitest';
import { itemWindow, pageStep, scrollToReveal } from './windowing';

describe('windowing', () => {
  const list = { count: 10_000, columns: 1, rowHeight: 40 };
  const grid = { count: 1003, columns: 4, rowHeight: 150 };

  it('draws the rows in view and the overscan either side, standing the rest in as padding', () => {
    expect(itemWindow(list, 0, 400, 5)).toEqual({ start: 0, end: 15, padTop: 0, padBottom: (10_000 - 15) * 40 });
    expect(itemWindow(list, 4000, 4400, 5)).toEqual({ start: 95, end: 115, padTop: 95 * 40, padBottom: (10_000 - 115) * 40 });
    // The end: the last row is drawn and nothing stands below it.
    expect(itemWindow(list, 399_600, 400_000, 5)).toMatchObject({ end: 10_000, padBottom: 0 });
    // Rows scrolled half into view count.
    expect(itemWindow(list, 20, 60, 0)).toMatchObject({ start: 0, end: 2 });
  });

  it('draws whole rows of a grid, its last row short', () => {
    expect(itemWindow(grid, 300, 600, 1)).toEqual({ start: 4, end: 20, padTop: 150, padBottom: (251 - 5) * 150 });
    const end = itemWindow(grid, 250 * 150, 251 * 150, 1);
    expect(end).toMatchObject({ start: 249 * 4, end: 1003, padBottom: 0 });
  });

  it('still draws the last rows of a view scrolled past them, and nothing of an empty folder', () => {
    expect(itemWindow({ count: 10, columns: 1, rowHeight: 40 }, 4000, 4400, 2)).toMatchObject({ start: 5, end: 10, padBottom: 0 });
    expect(itemWindow({ count: 0, columns: 3, rowHeight: 40 }, 0, 400, 2)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('scrolls just enough to bring an item wholly into view, whichever way', () => {
    expect(scrollToReveal(list, 5, 0, 400)).toBe(0);
    expect(scrollToReveal(list, 9_999, 0, 400)).toBe(9_999 * 40 + 40 - 400);
    expect(scrollToReveal(list, 2, 400, 800)).toBe(80 - 400);
    // A view lower than a row shows the row's top.
    expect(scrollToReveal(list, 20, 0, 30)).toBe(800);
    expect(scrollToReveal(grid, 7, 0, 200)).toBe(100);
  });

  it('pages by the whole rows that fit, at least one', () => {
    expect(pageStep(list, 410)).toBe(10);
    expect(pageStep(grid, 460)).toBe(12);
    expect(pageStep(list, 10)).toBe(1);
  });
});
