import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url';
import {
  decryptText,
  encryptText,
  encryptWithKeyText,
  exportPasteKey,
  generatePasteKey,
  importPasteKey,
  linkKeyProblem,
  openWithLinkKey,
  PasteCipherError,
} from './paste-cipher';
import { keyTextOf, linkWithKey } from './link-key';

const TEXT = '# Secret 秘密 🔐\n\n- [x] only the link knows';

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(PasteCipherError);
  return (error as PasteCipherError).reason;
}

describe('base64url', () => {
  it('round-trips every byte, with no padding and no + or /', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = toBase64Url(bytes);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromBase64Url(text)).toEqual(bytes);
    for (const length of [0, 1, 2, 3, 4]) expect(fromBase64Url(toBase64Url(bytes.subarray(0, length)))).toEqual(bytes.subarray(0, length));
  });
  it('takes a large array, and refuses what is not base64url', () => {
    const large = new Uint8Array(300_000).fill(7);
    expect(fromBase64Url(toBase64Url(large))).toEqual(large);
    expect(fromBase64Url('a+b/')).toBeUndefined();
    expect(fromBase64Url('abcde')).toBeUndefined();
    expect(fromBase64Url('ab c')).toBeUndefined();
  });
});

describe('paste cipher', () => {
  it('round-trips UTF-8 text through a key exported to the link and imported back', async () => {
    const key = await generatePasteKey();
    const keyText = await exportPasteKey(key);
    expect(fromBase64Url(keyText)).toHaveLength(32);
    const payload = await encryptText(key, TEXT);
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    // IV ‖ ciphertext ‖ tag: 12 + the text's bytes + 16.
    expect(fromBase64Url(payload)).toHaveLength(12 + new TextEncoder().encode(TEXT).length + 16);
    expect(await decryptText(await importPasteKey(keyText), payload)).toBe(TEXT);
  });

  it('uses a fresh IV each time', async () => {
    const key = await generatePasteKey();
    expect(await encryptText(key, TEXT)).not.toBe(await encryptText(key, TEXT));
  });

  it('refuses a wrong key', async () => {
    const payload = await encryptText(await generatePasteKey(), TEXT);
    expect(await failure(decryptText(await generatePasteKey(), payload))).toBe('wrong_key');
  });

  it('refuses a truncated payload', async () => {
    const key = await generatePasteKey();
    const bytes = fromBase64Url(await encryptText(key, TEXT)) ?? new Uint8Array();
    expect(await failure(decryptText(key, toBase64Url(bytes.subarray(0, bytes.length - 1))))).toBe('wrong_key');
    expect(await failure(decryptText(key, toBase64Url(bytes.subarray(0, 27))))).toBe('wrong_key');
    expect(await failure(decryptText(key, ''))).toBe('wrong_key');
  });

  it('refuses a tampered tag, IV or ciphertext', async () => {
    const key = await generatePasteKey();
    const bytes = fromBase64Url(await encryptText(key, TEXT)) ?? new Uint8Array();
    for (const index of [bytes.length - 1, 0, 20]) {
      const tampered = bytes.slice();
      tampered[index] = (tampered[index] ?? 0) ^ 1;
      expect(await failure(decryptText(key, toBase64Url(tampered)))).toBe('wrong_key');
    }
  });

  it('refuses a key that is not 32 bytes of base64url', async () => {
    for (const text of ['', 'short', 'a+b/', toBase64Url(new Uint8Array(16))]) expect(await failure(importPasteKey(text))).toBe('bad_key');
  });
});

describe('the key in the link', () => {
  it('goes into the fragment and comes back out of it', async () => {
    const keyText = await exportPasteKey(await generatePasteKey());
    const link = linkWithKey('https://clip.example/paste/abc', keyText);
    expect(link).toBe(`https://clip.example/paste/abc#key=${keyText}`);
    expect(keyTextOf(new URL(link).hash)).toBe(keyText);
    expect(keyTextOf('')).toBeUndefined();
    expect(keyTextOf('#key=')).toBeUndefined();
    expect(keyTextOf('#heading')).toBeUndefined();
  });

  it('opens a paste with the key of the fragment, and seals an edit with the same key', async () => {
    const keyText = await exportPasteKey(await generatePasteKey());
    const payload = await encryptWithKeyText(keyText, TEXT);
    expect(await openWithLinkKey(payload, `#key=${keyText}`)).toEqual({ text: TEXT, keyText });
    expect(await failure(openWithLinkKey(payload, ''))).toBe('no_key');
    expect(await failure(openWithLinkKey(payload, '#key=abc'))).toBe('bad_key');
    const otherKey = await exportPasteKey(await generatePasteKey());
    expect(await failure(openWithLinkKey(payload, `#key=${otherKey}`))).toBe('wrong_key');
  });

  it('tells a missing or malformed key before any payload is at hand', async () => {
    const keyText = await exportPasteKey(await generatePasteKey());
    expect(await linkKeyProblem(`#key=${keyText}`)).toBeUndefined();
    expect(await linkKeyProblem('')).toBe('no_key');
    expect(await linkKeyProblem(`#key=${keyText.slice(0, 20)}`)).toBe('bad_key');
  });
});
