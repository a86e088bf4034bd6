/** Link targets a rendered document may keep: the web, mail, and places in the document itself. */
const SAFE_LINK = /^(?:https?:|mailto:|#)/i;

/**
 * Rendered documents carry their authors' links: a `javascript:` one would run as this page when clicked. Those
 * lose their target; the others open in a new tab without telling the site where they came from.
 */
export function neutraliseLinks(root: ParentNode): void {
  for (const link of Array.from(root.querySelectorAll('a[href], area[href]'))) {
    const href = link.getAttribute('href')?.trim() ?? '';
    if (!SAFE_LINK.test(href)) link.removeAttribute('href');
    else if (!href.startsWith('#')) {
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
    }
  }
}
