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

export const pasteEncryptionSchema = v.picklist(PASTE_ENCRYPTIONS);

/**
 * A paste's `encryption` field: plain text (absent or null) or an encrypted payload. The server's answers always
 * carry it (null for plain text); absent still parses, as plain text, for answers stored before it existed (the
 * browser's offline cache). The API document describes the format (server/openapi/catalog/pastes.ts).
 */
export const pasteEncryptionFieldSchema = v.optional(v.nullable(pasteEncryptionSchema));

