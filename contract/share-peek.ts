import { PASTE_ENCRYPTIONS, type PasteEncryption } from './paste-encryption';

/**
 * What a share's page shows before the visitor presses "Show", told in response headers so that a `HEAD` (which
 * spends no view) carries it: `HEAD /api/paste/{slug}`, `HEAD /api/raw/{slug}`, `HEAD /api/public/files/{slug}`,
 * `HEAD /api/file-view/{slug}` and `HEAD /api/file-download/{slug}`. The same routes' `GET`s send them too, after
 * the view they spend.
 */
export const SHARE_PEEK_HEADERS = {
  /** `required` when this caller must give the share's password to read it, else `none`. */
  password: 'X-Clipstash-Password',
  /** Views left before the share's view limit; absent when it has none. */
  viewsLeft: 'X-Clipstash-Views-Left',
  /** The content's size in bytes: a paste's UTF-8 text or encrypted payload as stored, a file's bytes. */
  size: 'X-Clipstash-Size',
  /**
   * The content's media type: `text/markdown; charset=utf-8` for a paste, `application/octet-stream` for an
   * encrypted one, a file's own type.
   */
  contentType: 'X-Clipstash-Content-Type',
  /** A paste's encryption (`aes-256-gcm`); absent when it is plain text, and for files. */
  encryption: 'X-Clipstash-Encryption',
  /** When the share expires, ISO 8601 in UTC; absent when it never does. */
  expiresAt: 'X-Clipstash-Expires-At',
} as const;

export const PASSWORD_REQUIRED = 'required';
export const PASSWORD_NONE = 'none';

/** A paste's media type as the peek tells it. */
export const PASTE_TEXT_TYPE = 'text/markdown; charset=utf-8';
export const ENCRYPTED_PASTE_TYPE = 'application/octet-stream';

export interface SharePeek {
  requiresPassword: boolean;
  /** null: no view limit. */
  viewsLeft: number | null;
  size: number;
  contentType: string;
  encryption: PasteEncryption | null;
  /** null: never expires. */
  expiresAt: string | null;
}

/** The headers that tell a peek (the server's side). */
export function sharePeekHeaders(peek: SharePeek): Record<string, string> {
  return {
    [SHARE_PEEK_HEADERS.password]: peek.requiresPassword ? PASSWORD_REQUIRED : PASSWORD_NONE,
    [SHARE_PEEK_HEADERS.size]: String(peek.size),
    [SHARE_PEEK_HEADERS.contentType]: peek.contentType,
    ...(peek.viewsLeft === null ? {} : { [SHARE_PEEK_HEADERS.viewsLeft]: String(peek.viewsLeft) }),
    ...(peek.encryption === null ? {} : { [SHARE_PEEK_HEADERS.encryption]: peek.encryption }),
    ...(peek.expiresAt === null ? {} : { [SHARE_PEEK_HEADERS.expiresAt]: peek.expiresAt }),
  };
}

/** Reads a peek from an answer's headers (the browser's side); undefined when the answer carries none. */
export function readSharePeek(headers: Headers): SharePeek | undefined {
  const password = headers.get(SHARE_PEEK_HEADERS.password);
  const sizeText = headers.get(SHARE_PEEK_HEADERS.size);
  const size = Number(sizeText);
  if (password === null || sizeText === null || !Number.isSafeInteger(size)) return undefined;
  const viewsLeft = headers.get(SHARE_PEEK_HEADERS.viewsLeft);
  const encryption = headers.get(SHARE_PEEK_HEADERS.encryption);
  return {
    requiresPassword: password === PASSWORD_REQUIRED,
    viewsLeft: viewsLeft === null ? null : Number(viewsLeft),
    size,
    contentType: headers.get(SHARE_PEEK_HEADERS.contentType) ?? ENCRYPTED_PASTE_TYPE,
    encryption: (PASTE_ENCRYPTIONS as readonly string[]).includes(encryption ?? '') ? (encryption as PasteEncryption) : null,
    expiresAt: headers.get(SHARE_PEEK_HEADERS.expiresAt),
  };
}

/** For `Access-Control-Expose-Headers`, where an answer allows other origins. */
export const SHARE_PEEK_EXPOSED = Object.values(SHARE_PEEK_HEADERS).join(', ');
