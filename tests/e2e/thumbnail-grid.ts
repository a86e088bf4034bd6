import type { Locator } from 'playwright-core';

/**
 * The explorer grid's tiles a visitor sees (their middle on screen, not clipped by the list's scrolling box) and
 * those of them whose thumbnail has loaded, by path. A large folder's grid draws only the rows near the view, so
 * tiles and their images come and go as it scrolls: what was shown is told screen by screen.
 */
export function tilesOnScreen(listbox: Locator): Promise<{ visible: string[]; loaded: string[] }> {
  return listbox.locator('[role="option"]').evaluateAll((all) => {
    const visible = all.filter((option) => {
      const box = option.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && option.contains(hit);
    });
    const loaded = visible.filter((option) => {
      const image = option.querySelector('img');
      return image !== null && image.complete && image.naturalWidth > 0;
    });
    // No named function here: tsx would wrap it in a helper the page does not have.
    return { visible: visible.map((option) => option.getAttribute('data-path') ?? ''), loaded: loaded.map((option) => option.getAttribute('data-path') ?? '') };
  });
}

/**
 * Scrolls the grid's own box down by a screen less a row's part, at once: the wheel's smooth scrolling would move
 * on between two looks at the screen, and a jump to the end would skip the tiles between, which never load.
 */
export const scrollGridByScreen = (listbox: Locator) => listbox.evaluate((box) => box.scrollBy({ top: box.clientHeight - 100, behavior: 'instant' }));
