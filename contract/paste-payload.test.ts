import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ENCRYPTED_PAYLOAD_MIN_BYTES } from './paste-encryption';
import { base64UrlByteLength, encryptedPayloadIssue } from './paste-payload';
import { createPasteRequestSchema, updatePasteRequestSchema } from './pastes';

const issueOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? undefined : { path: v.getDotPath(result.issues[0]), message: result.issues[0].message };
};

/** base64url of n bytes, as the browser's and Node's encoders write it. */
const bytes = (n: number) => Buffer.alloc(n, 0xfb).toString('base64url');

describe('base64UrlByteLength', () => {
  it.each([0, 1, 2, 3, 27, 28, 29, 30, 1000])('reads the length of %i bytes back from their base64url', (n) => {
    expect(base64UrlByteLength(bytes(n))).toBe(n);
  });

  it.each([
    ['padding', `${bytes(28)}=`],
    ['standard base64 characters', `${'A'.repeat(40)}+/`],
    ['a space', `${'A'.repeat(20)} ${'A'.repeat(20)}`],
    ['a newline', `${bytes(30)}\n`],
    ['a length of 4n+1', 'A'.repeat(41)],
  ])('refuses %s', (_what, text) => {
    expect(base64UrlByteLength(text)).toBeUndefined();
  });
});

describe('encryptedPayloadIssue', () => {
  it('accepts IV + tag and more', () => {
    expect(ENCRYPTED_PAYLOAD_MIN_BYTES).toBe(28);
    expect(encryptedPayloadIssue(bytes(28))).toBeUndefined();
    expect(encryptedPayloadIssue(bytes(4096))).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(encryptedPayloadIssue(bytes(27))).toBe('payload_too_short');
    expect(encryptedPayloadIssue('')).toBe('payload_too_short');
    expect(encryptedPayloadIssue(`${bytes(30)}==`)).toBe('not_base64url');
  });
});

describe('the paste bodies with encryption', () => {
  it('accept a payload with aes-256-gcm and keep it as sent', () => {
    const content = bytes(40);
    expect(v.parse(createPasteRequestSchema, { content, encryption: 'aes-256-gcm' })).toEqual({
      content,
      encryption: 'aes-256-gcm',
      maxViews: 0,
    });
    expect(v.parse(updatePasteRequestSchema, { content, encryption: 'aes-256-gcm' })).toEqual({ content, encryption: 'aes-256-gcm' });
  });

  it('leave plain content unchecked (absent or null encryption)', () => {
    expect(v.is(createPasteRequestSchema, { content: 'plain text + = /' })).toBe(true);
    expect(v.is(createPasteRequestSchema, { content: 'plain text + = /', encryption: null })).toBe(true);
    expect(v.parse(updatePasteRequestSchema, { content: 'x', encryption: null })).toEqual({ content: 'x', encryption: null });
  });

  it.each([
    [createPasteRequestSchema, { content: `${bytes(30)}=`, encryption: 'aes-256-gcm' }, 'content', 'not_base64url'],
    [createPasteRequestSchema, { content: 'hello world', encryption: 'aes-256-gcm' }, 'content', 'not_base64url'],
    [createPasteRequestSchema, { content: bytes(27), encryption: 'aes-256-gcm' }, 'content', 'payload_too_short'],
    [createPasteRequestSchema, { content: bytes(40), encryption: 'aes-128-cbc' }, 'encryption', expect.any(String)],
    [createPasteRequestSchema, { content: '', encryption: 'aes-256-gcm' }, 'content', 'required'],
    [updatePasteRequestSchema, { content: bytes(3), encryption: 'aes-256-gcm' }, 'content', 'payload_too_short'],
    [updatePasteRequestSchema, { encryption: 'aes-256-gcm' }, 'content', 'required'],
    [updatePasteRequestSchema, { encryption: null }, 'content', 'required'],
  ])('refuse %#: %j', (schema, input, path, message) => {
    expect(issueOf(schema, input)).toEqual({ path, message });
  });
});
