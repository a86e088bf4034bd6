import { Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS } from '../../../contract/two-factor';

const ISSUER = 'Clipstash';

const totpOf = (secret: string, username = '') =>
  new TOTP({ issuer: ISSUER, label: username, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP_DIGITS, period: 30 });

/** A fresh 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://totp/…` URI an authenticator app reads from the QR code. */
export const totpUri = (secret: string, username: string): string => totpOf(secret, username).toString();

export const isTotpShaped = (code: string): boolean => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code);

/**
 * The time step `code` belongs to when it is right for `now`, one step either side for clocks that drift; else
 * undefined. The caller refuses a step already used (replay).
 */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  const totp = totpOf(secret);
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}
