import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random base62 text (randomInt has no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** 32 random bytes, URL-safe: admin session tokens. */
export const newSessionToken = (): string => randomBytes(32).toString('base64url');

/** Tokens and keys are stored as SHA-256: a database leak gives no usable credential. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(sha256(a));
  const right = Buffer.from(sha256(b));
  return timingSafeEqual(left, right);
}
