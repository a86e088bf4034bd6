import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeKey } from '../config';

/**
 * AES-256-GCM for secrets that must be read back (S3 secret keys), and HMAC-SHA256
 * signatures for links the server hands out (signed local storage URLs, file links). Each signing purpose gets
 * its own key, derived from the encryption key with HKDF, so a signature for one use is worthless for another.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** base64url HMAC-SHA256 of `message` under the key of `purpose`. */
  sign(purpose: string, message: string): string;
  /** Whether `signature` is sign(purpose, message); compared in constant time. */
  verify(purpose: string, message: string, signature: string): boolean;
}

export function createSecretBox(key: Buffer): SecretBox {
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string) => {
    let derived = macKeys.get(purpose);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `clipstash:${purpose}`, 32));
      macKeys.set(purpose, derived);
    }
    return derived;
  };
  const mac = (purpose: string, message: string) => createHmac('sha256', macKey(purpose)).update(message, 'utf8').digest();
  return {
    sign: (purpose, message) => mac(purpose, message).toString('base64url'),
    verify(purpose, message, signature) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
      return timingSafeEqual(mac(purpose, message), Buffer.from(signature, 'base64url'));
    },
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/** The configured key, else `secret.key` in the data folder (created once, mode 0600). */
export function loadEncryptionKey(dataDir: string, configured: string | undefined): Buffer {
  if (configured) {
    const key = decodeKey(configured);
    if (!key) throw new Error('ENCRYPTION_KEY is not a 32-byte key');
    return key;
  }
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  const key = decodeKey(readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
