import { asRequestFailure } from '../../../contract/envelope';
import type { PublicFile } from '../../../contract/public-file';
import { getPublicFile } from '../../lib/api/file-reads';
import { peekFile, type FilePeek } from './peek';

/** A share with a view limit, as its peek tells it. */
export type LimitedPeek = Extract<FilePeek, { locked: false }> & { viewsLeft: number };

/** Where a visit lands: the file as the server's info tells it, or the gate before a limited share. */
export type Landing = { kind: 'file'; file: PublicFile } | { kind: 'gate'; peek: LimitedPeek };

const isLimited = (peek: FilePeek): peek is LimitedPeek => !peek.locked && peek.viewsLeft !== null;

async function land(slug: string): Promise<Landing> {
  let peek: FilePeek;
  try {
    peek = await peekFile(slug);
  } catch (error) {
    // As a paste's page does: without a network the share's last answer may be in the offline cache
    // (src/lib/offline-cache.ts), which only a GET reaches, and offline a GET spends nothing.
    if (asRequestFailure(error).reason !== 'network') throw error;
    return { kind: 'file', file: await getPublicFile(slug) };
  }
  return isLimited(peek) ? { kind: 'gate', peek } : { kind: 'file', file: await getPublicFile(slug) };
}

const landings = new Map<string, Promise<Landing>>();

/**
 * A share with a view limit stops at the gate, which spends nothing: chat and mail clients load a link before
 * its recipient does, and must not burn it. Any other share is read at once, as before: that read counts a view,
 * or none while a password is missing (its form is the step that spends one).
 * Simultaneous visits (a remount, React's development double effects) share one landing, so that they cannot
 * spend two views.
 */
export function landOn(slug: string): Promise<Landing> {
  const pending = landings.get(slug);
  if (pending) return pending;
  const landing = land(slug).finally(() => landings.delete(slug));
  landings.set(slug, landing);
  return landing;
}
