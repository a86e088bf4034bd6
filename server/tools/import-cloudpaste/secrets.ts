import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'encrypted:';

export class SecretMismatch extends Error {}

/**
 * A value CloudPaste stored in its `encrypted:<mac>:<value>` form: the value in base64 beside a base64
 * HMAC-SHA256 of it under the install's ENCRYPTION_SECRET. The value itself is only encoded, so the secret serves
 * to check that the right install's secret was given (a wrong one would otherwise import garbage without a word).
 * A value without the prefix is CloudPaste's plain text.
 */
export function decodeCloudPasteSecret(stored: string, secret: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  const [mac = '', body] = stored.slice(PREFIX.length).split(':');
  if (body === undefined) throw new SecretMismatch('a value in the encrypted: form has no body');
  const value = Buffer.from(body, 'base64').toString('utf8');
  const expected = createHmac('sha256', secret).update(value, 'utf8').digest();
  const given = Buffer.from(mac, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new SecretMismatch('--secret is not the ENCRYPTION_SECRET the CloudPaste install sealed its storage secrets with');
  }
  return value;
}
