// What a paste's page asks for, apart from the editor's and the management's calls (./pastes.ts) and its links
// (./paste-links.ts), so that a visitor's page loads only these.
import { t } from '@lingui/core/macro';
import { publicPasteSchema } from '../../../contract/public-paste';
import { readSharePeek } from '../../../contract/share-peek';
import { apiHead, ApiRequestError, apiRequest } from './client';

const enc = encodeURIComponent;

const pasteReads = new Map<string, ReturnType<typeof readPaste>>();
const readPaste = (slug: string) => apiRequest(`/paste/${enc(slug)}`, { schema: publicPasteSchema });

/**
 * Opening a paste counts a view, so a page that asks twice at once (a remount, React's development double
 * effects) must share one request rather than spend two views.
 */
export function getPaste(slug: string) {
  const pending = pasteReads.get(slug);
  if (pending) return pending;
  const request = readPaste(slug).finally(() => pasteReads.delete(slug));
  pasteReads.set(slug, request);
  return request;
}

/** What a paste is (contract/share-peek.ts), without spending a view. */
export async function peekPaste(slug: string) {
  const peek = readSharePeek(await apiHead(`/paste/${enc(slug)}`));
  if (!peek) throw new ApiRequestError('internal', 200, t`The server sent an unexpected answer`);
  return peek;
}

export const unlockPaste = (slug: string, password: string) =>
  apiRequest(`/paste/${enc(slug)}`, {
    method: 'POST',
    body: { password },
    schema: publicPasteSchema,
    ownUnauthorizedMessage: t`Wrong password`,
  });
