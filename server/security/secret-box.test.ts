import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox, loadEncryptionKey } from './secret-box';

describe('createSecretBox', () => {
  const box = createSecretBox(randomBytes(32));

  it.each(['s3-secret-AKIA/xyz+=', '', 'ünïcødé 密钥 🔑', 'x'.repeat(10_000)])('round-trips %j', (plain) => {
    const sealed = box.seal(plain);
    expect(box.open(sealed)).toBe(plain);
  });

  it('seals the same text differently each time and never in plain text', () => {
    const [a, b] = [box.seal('the same secret'), box.seal('the same secret')];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[^.]+\.[^.]+\.[^.]*$/);
    expect(a).not.toContain('the same secret');
    expect(Buffer.from(a.split('.')[3] ?? '', 'base64').toString('utf8')).not.toContain('the same secret');
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const sealed = box.seal('do not touch');
    const [version, iv, tag, body] = sealed.split('.') as [string, string, string, string];
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      return bytes.toString('base64');
    };
    for (const tampered of [
      [version, iv, tag, flip(body)],
      [version, iv, flip(tag), body],
      [version, flip(iv), tag, body],
      [version, iv, tag, Buffer.concat([Buffer.from(body, 'base64'), Buffer.from([0])]).toString('base64')],
    ]) {
      expect(() => box.open(tampered.join('.'))).toThrow();
    }
  });

  it('refuses a text sealed under another key', () => {
    const other = createSecretBox(randomBytes(32));
    expect(() => other.open(box.seal('mine'))).toThrow();
  });

  it.each(['', 'v1', 'v1.a.b', 'v2.AAAA.AAAA.AAAA', 'plain text'])('refuses the malformed %j', (sealed) => {
    expect(() => box.open(sealed)).toThrow();
  });
});

describe('loadEncryptionKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clipstash-key-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates secret.key with mode 0600 once and reuses it', () => {
    const file = join(dir, 'secret.key');
    expect(existsSync(file)).toBe(false);
    const first = loadEncryptionKey(dir, undefined);
    expect(first).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(text, 'hex').equals(first)).toBe(true);

    const second = loadEncryptionKey(dir, undefined);
    expect(second.equals(first)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // What one process sealed, the next opens.
    expect(createSecretBox(second).open(createSecretBox(first).seal('persisted'))).toBe('persisted');
  });

  it('creates a different key in another data folder', () => {
    const other = mkdtempSync(join(tmpdir(), 'clipstash-key-'));
    try {
      expect(loadEncryptionKey(dir, undefined).equals(loadEncryptionKey(other, undefined))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('uses a configured key and writes no file', () => {
    const key = randomBytes(32);
    expect(loadEncryptionKey(dir, key.toString('hex')).equals(key)).toBe(true);
    expect(loadEncryptionKey(dir, key.toString('base64')).equals(key)).toBe(true);
    expect(existsSync(join(dir, 'secret.key'))).toBe(false);
  });

  it('refuses a bad configured key and a corrupt key file', () => {
    expect(() => loadEncryptionKey(dir, 'too-short')).toThrow(/ENCRYPTION_KEY/);
    writeFileSync(join(dir, 'secret.key'), 'garbage', { mode: 0o600 });
    expect(() => loadEncryptionKey(dir, undefined)).toThrow(/secret\.key/);
  });
});

describe('signatures', () => {
  const box = createSecretBox(randomBytes(32));

  it('verifies its own signature and nothing else', () => {
    const signature = box.sign('local-storage', 'PUT\nkey\n123');
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(box.verify('local-storage', 'PUT\nkey\n123', signature)).toBe(true);
    expect(box.verify('local-storage', 'PUT\nkey\n124', signature)).toBe(false);
    expect(box.verify('file-link', 'PUT\nkey\n123', signature)).toBe(false);
    expect(createSecretBox(randomBytes(32)).verify('local-storage', 'PUT\nkey\n123', signature)).toBe(false);
  });

  it('refuses malformed and flipped signatures without throwing', () => {
    const signature = box.sign('p', 'm');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const bad of ['', 'short', signature + 'x', flipped, signature.slice(0, 42) + '=', '../../etc/passwd']) {
      expect(box.verify('p', 'm', bad)).toBe(false);
    }
  });
});
