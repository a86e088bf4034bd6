/**
 * What a paste's HTML names is its own: every `id` and `name` in it starts with this prefix, as on GitHub, so that
 * no paste can shadow a global of the page that shows it (DOM clobbering: `<img name="x">` is `window.x`, `<form
 * id="y">` is `document.y`). The Markdown renderer prefixes the heading ids it makes (contract/markdown.ts), the
 * sanitiser every other id and name (src/lib/markdown/sanitize.ts), and a link to `#x` inside a paste reaches the
 * element named `user-content-x` (src/components/MarkdownView.tsx), the address still showing `#x`. Its own module:
 * the sanitiser's chunk must not take the Markdown parser with it.
 */
export const USER_CONTENT_PREFIX = 'user-content-';

/** `name` as a paste's HTML holds it: prefixed once. */
export function userContentName(name: string): string {
  return name.startsWith(USER_CONTENT_PREFIX) ? name : USER_CONTENT_PREFIX + name;
}
