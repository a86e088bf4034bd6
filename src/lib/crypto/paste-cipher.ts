import { AES_GCM_IV_BYTES, AES_GCM_KEY_BYTES, AES_GCM_TAG_BYTES } from '../../../contract/paste-encryption';
import { fromBase64Url, toBase64Url } from './base64url';
import { keyTextOf } from './link-key';

/**
 * End-to-end encrypted pastes (contract/paste-encryption.ts): the browser encrypts the text with AES-256-GCM under
 * a key that travels only in the share link's fragment (link-key.ts).
 */

const ALGORITHM = 'AES-GCM';

/** Why a paste could not be decrypted: no key in the link, a key that is not one, or the wrong key (or altered text). */
export type DecryptFailure = 'no_key' | 'bad_key' | 'wrong_key';

export class PasteCipherError extends Error {
  constructor(readonly reason: DecryptFailure) {
    super(`paste cannot be decrypted: ${reason}`);
    this.name = 'PasteCipherError';
  }
}

/** A fresh random 256-bit key, exportable so that it can go into the link. */
export function generatePasteKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: ALGORITHM, length: AES_GCM_KEY_BYTES * 8 }, true, ['encrypt', 'decrypt']);
}

/** The key as the link carries it: base64url of its 32 bytes. */
export async function exportPasteKey(key: CryptoKey): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.exportKey('raw', key)));
}

/** The key of a link's text; throws PasteCipherError('bad_key') for anything but base64url of 32 bytes. */
export async function importPasteKey(text: string): Promise<CryptoKey> {
  const bytes = fromBase64Url(text);
  if (bytes?.length !== AES_GCM_KEY_BYTES) throw new PasteCipherError('bad_key');
  return crypto.subtle.importKey('raw', bytes, ALGORITHM, false, ['encrypt', 'decrypt']);
}

/** base64url(IV ‖ ciphertext ‖ tag) of the text's UTF-8, with a random IV each time. */
export async function encryptText(key: CryptoKey, text: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(AES_GCM_IV_BYTES));
  // WebCrypto appends GCM's tag to the ciphertext, as the payload has it.
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: ALGORITHM, iv }, key, new TextEncoder().encode(text)));
  const payload = new Uint8Array(AES_GCM_IV_BYTES + sealed.length);
  payload.set(iv);
  payload.set(sealed, AES_GCM_IV_BYTES);
  return toBase64Url(payload);
}

/**
 * The text of a payload made by encryptText. The tag fails for a wrong key and for any change to the payload
 * alike (GCM cannot tell them apart): both throw PasteCipherError('wrong_key').
 */
export async function decryptText(key: CryptoKey, payload: string): Promise<string> {
  const bytes = fromBase64Url(payload);
  if (!bytes || bytes.length < AES_GCM_IV_BYTES + AES_GCM_TAG_BYTES) throw new PasteCipherError('wrong_key');
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: ALGORITHM, iv: bytes.subarray(0, AES_GCM_IV_BYTES) }, key, bytes.subarray(AES_GCM_IV_BYTES));
  } catch {
    throw new PasteCipherError('wrong_key');
  }
  return new TextDecoder().decode(plain);
}

/** An owner's edit, sealed with the key of the link they opened. */
export async function encryptWithKeyText(keyText: string, text: string): Promise<string> {
  return encryptText(await importPasteKey(keyText), text);
}

/** Decrypts a paste with the key of the page's fragment: the key's text comes back too, to encrypt an edit with. */
export async function openWithLinkKey(payload: string, hash: string): Promise<{ text: string; keyText: string }> {
  const keyText = keyTextOf(hash);
  if (!keyText) throw new PasteCipherError('no_key');
  return { text: await decryptText(await importPasteKey(keyText), payload), keyText };
}

/**
 * What keeps the page's fragment from opening an encrypted paste, found before the paste is fetched (which may
 * spend a view): no key, or one that is not a key. A wrong key shows only against the payload.
 */
export async function linkKeyProblem(hash: string): Promise<Exclude<DecryptFailure, 'wrong_key'> | undefined> {
  const keyText = keyTextOf(hash);
  if (!keyText) return 'no_key';
  return importPasteKey(keyText).then(
    () => undefined,
    () => 'bad_key' as const,
  );
}
