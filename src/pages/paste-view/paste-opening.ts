import { asRequestFailure } from '../../../contract/envelope';
import type { PublicPaste } from '../../../contract/public-paste';
import type { SharePeek } from '../../../contract/share-peek';
import type { DecryptFailure } from '../../lib/crypto/paste-cipher';

/** A paste as the page shows it, once fetched. */
export interface ShownPaste {
  paste: PublicPaste;
  /** The text to show (decrypted, for an encrypted paste); absent while a password is needed, or it failed. */
  text?: string;
  /** The link's key, for an encrypted paste: copying the link and an owner's edit keep it. */
  keyText?: string;
  /** An encrypted paste that the link's key cannot open. */
  failure?: DecryptFailure;
}

/** What the page shows first. */
export type FirstLook =
  /** A view limit: what the paste is, and nothing spent until the visitor presses Show or gives the password. */
  | { kind: 'gate'; peek: SharePeek }
  /** An encrypted paste that the link cannot open (no key, or no key of the right form): nothing was fetched. */
  | { kind: 'link'; problem: DecryptFailure }
  | { kind: 'paste'; shown: ShownPaste };

export interface FirstLookSteps {
  /** `HEAD`: what the paste is, spending nothing. */
  peek: () => Promise<SharePeek>;
  /** `GET`: the paste, spending a view where it has a limit. */
  open: () => Promise<ShownPaste>;
  /** What keeps the link's fragment from opening an encrypted paste, if anything. */
  linkKeyProblem: () => Promise<DecryptFailure | undefined>;
}

/**
 * Peeks first, so that a link preview (a browser that loads the page, runs its script and clicks nothing) spends
 * no view: a paste with a view limit waits at the gate, one without opens at once, as does one whose peek could
 * not be made for want of a network (its answer may be in the offline cache, src/lib/offline-cache.ts, which only
 * a GET reaches; and offline, a GET spends nothing).
 */
export async function firstLook(steps: FirstLookSteps): Promise<FirstLook> {
  let peek: SharePeek;
  try {
    peek = await steps.peek();
  } catch (error) {
    if (asRequestFailure(error).reason !== 'network') throw error;
    return { kind: 'paste', shown: await steps.open() };
  }
  if (peek.encryption) {
    const problem = await steps.linkKeyProblem();
    if (problem) return { kind: 'link', problem };
  }
  if (peek.viewsLeft !== null) return { kind: 'gate', peek };
  return { kind: 'paste', shown: await steps.open() };
}
