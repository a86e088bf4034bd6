import { PASTE_KEY_FRAGMENT } from '../../../contract/paste-encryption';

/**
 * Where an encrypted paste's key travels: the link's fragment (`#key=…`), which browsers never send to the server.
 * Apart from the cipher, so that a page can read and write links without loading the cipher's code.
 */

/** The key's text in a link's fragment (as location.hash gives it), if there is one. */
export function keyTextOf(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get(PASTE_KEY_FRAGMENT) || undefined;
}

/** A share link (or raw link) that carries the key in its fragment. */
export const linkWithKey = (url: string, keyText: string) => `${url}#${PASTE_KEY_FRAGMENT}=${keyText}`;
