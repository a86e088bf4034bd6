import * as v from 'valibot';

/**
 * End-to-end encrypted pastes. The browser (or a script) encrypts the text with AES-256-GCM under a key that stays
 * in the link's fragment (`/paste/{slug}#key=<base64url of the 32-byte key>`), which browsers never send: the
 * server stores and answers the payload as given and can neither read, render nor preview it.
 */
export const PASTE_ENCRYPTIONS = ['aes-256-gcm'] as const;
export type PasteEncryption = (typeof PASTE_ENCRYPTIONS)[number];

export const AES_GCM_KEY_BYTES = 32;
export const AES_GCM_IV_BYTES = 12;
export const AES_GCM_TAG_BYTES = 16;
/** An empty text encrypts to IV ‖ tag: nothing shorter can be a payload. */
export const ENCRYPTED_PAYLOAD_MIN_BYTES = AES_GCM_IV_BYTES + AES_GCM_TAG_BYTES;
/** The fragment parameter that carries the key: `#key=…`. */
export const PASTE_KEY_FRAGMENT = 'key';

export const PAYLOAD_FORMAT =
  'base64url without padding (RFC 4648 §5) of IV ‖ ciphertext ‖ tag: a 12-byte random IV, the AES-256-GCM ' +
  'ciphertext of the UTF-8 text, the 16-byte authentication tag (no additional data).';

export const pasteEncryptionSchema = v.pipe(
  v.picklist(PASTE_ENCRYPTIONS),
  v.description(
    `How \`content\` is encrypted; absent or null = plain text. \`aes-256-gcm\`: \`content\` is the ${PAYLOAD_FORMAT} ` +
      'The 32-byte key is never sent: it travels in the link\'s fragment, `#key=<base64url of the key>`.',
  ),
);

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
