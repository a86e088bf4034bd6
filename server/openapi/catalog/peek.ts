import { SHARE_PEEK_HEADERS } from '../../../contract/share-peek';
import type { HeadDoc, HeaderDocs } from './types';

/** The headers of a share's answers that tell its page what to show before the content (contract/share-peek.ts). */
export const PEEK_HEADERS: HeaderDocs = {
  [SHARE_PEEK_HEADERS.password]: '`required` when you must still give the share\'s password to read the content, else `none`.',
  [SHARE_PEEK_HEADERS.viewsLeft]: 'Views left before the view limit (after this request); absent when the share has no limit.',
  [SHARE_PEEK_HEADERS.size]:
    'The content\'s size in bytes: a paste\'s UTF-8 text, or its encrypted payload as stored; a file\'s bytes.',
  [SHARE_PEEK_HEADERS.contentType]:
    'The content\'s media type: `text/markdown; charset=utf-8` for a paste, `application/octet-stream` for an ' +
    'end-to-end encrypted one, a file\'s own type.',
  [SHARE_PEEK_HEADERS.encryption]: '`aes-256-gcm` for an end-to-end encrypted paste (decrypt it with the link\'s `#key=`); absent otherwise.',
  [SHARE_PEEK_HEADERS.expiresAt]: 'When the share expires, ISO 8601 in UTC; absent when it never does.',
};

/** The HEAD of a share's GET: the same checks, no view spent, no body. */
export const peekDoc = (what: string): HeadDoc => ({
  summary: `Peek at ${what} without spending a view`,
  description:
    'Runs the GET\'s checks (existence, expiry, view limit, and the password where the GET needs one) but spends no ' +
    'view and answers no body: its headers tell what the share page shows before the visitor opens it. Every GET, ' +
    'POST unlock and raw or file fetch that answers the content spends one view of the same limit.',
  headers: PEEK_HEADERS,
});
