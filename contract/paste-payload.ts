// The checks of an encrypted paste's payload (contract/paste-encryption.ts tells its format): the server's, and the
// request schemas' that share them with the editor. Apart from the format, so that a share's page loads none of them.
import * as v from 'valibot';
import { ENCRYPTED_PAYLOAD_MIN_BYTES, type PasteEncryption } from './paste-encryption';

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Bytes that base64url text decodes to; undefined when it is not base64url without padding. */
export function base64UrlByteLength(text: string): number | undefined {
  // A length of 4n+1 characters leaves 6 bits over, which no byte sequence encodes to.
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  return Math.floor((text.length * 3) / 4);
}

export type EncryptedPayloadIssue = 'not_base64url' | 'payload_too_short';

/** Why `content` cannot be an `aes-256-gcm` payload, or undefined when it can. */
export function encryptedPayloadIssue(content: string): EncryptedPayloadIssue | undefined {
  const bytes = base64UrlByteLength(content);
  if (bytes === undefined) return 'not_base64url';
  return bytes < ENCRYPTED_PAYLOAD_MIN_BYTES ? 'payload_too_short' : undefined;
}

/**
 * The request-level check of a paste body (`T`: the body's fields), its issue reported at `content`: with
 * `encryption` set, `content` must be a payload; and `encryption` comes with the content it describes (an edit that
 * sends only `content` keeps the paste's encryption, which the server checks it against). Skipped while the fields
 * themselves are invalid, whose own issue comes first.
 */
export const encryptedContentCheck = <T extends { content?: string; encryption?: PasteEncryption | null }>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { content, encryption } = dataset.value;
    const issue =
      content === undefined
        ? encryption !== undefined ? 'required' : undefined
        : encryption ? encryptedPayloadIssue(content) : undefined;
    if (issue) {
      addIssue({
        message: issue,
        path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'content', value: content }],
      });
    }
  });
