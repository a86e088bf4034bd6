import { execFileSync } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, unmatchableHash, verifyPassword } from './passwords';

describe('hashPassword / verifyPassword', () => {
  it('round-trips and refuses other passwords', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
    expect(await verifyPassword('Correct horse', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('writes scrypt$N$r$p$salt$hash with a fresh 16-byte salt and a 64-byte hash, never the password', async () => {
    const [a, b] = [await hashPassword('same password'), await hashPassword('same password')];
    expect(a).not.toBe(b);
    for (const stored of [a, b]) {
      const parts = stored.split('$');
      expect(parts.slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
      expect(Buffer.from(parts[4] ?? '', 'base64')).toHaveLength(16);
      expect(Buffer.from(parts[5] ?? '', 'base64')).toHaveLength(64);
      expect(stored).not.toContain('same password');
    }
  });

  it('hashes at N=2^15 outside the tests (they use 2^10 for time)', () => {
    const program = "import('./server/security/passwords.ts').then(async ({ hashPassword }) => console.log(await hashPassword('pw')))";
    const env = { ...process.env };
    delete env.VITEST;
    const printed = execFileSync(process.execPath, ['--import', 'tsx', '-e', program], { env, encoding: 'utf8' });
    expect(printed.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
  });

  it('reads the parameters from the stored hash, so older hashes keep working', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('legacy password'.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 });
    const stored = ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    expect(await verifyPassword('legacy password', stored)).toBe(true);
    expect(await verifyPassword('legacy passwort', stored)).toBe(false);
  });

  it('compares Unicode passwords in NFKC form', async () => {
    const stored = await hashPassword('caf\u00e9 pass');
    expect(await verifyPassword('cafe\u0301 pass', stored)).toBe(true);
    expect(await verifyPassword('\uff50\uff41\uff53\uff53', await hashPassword('pass'))).toBe(true);
  });

  it('refuses a tampered or malformed stored hash', async () => {
    const stored = await hashPassword('pw-123456');
    const parts = stored.split('$');
    const hash = Buffer.from(parts[5] ?? '', 'base64');
    hash[0] = (hash[0] ?? 0) ^ 1;
    const flipped = [...parts.slice(0, 5), hash.toString('base64')].join('$');
    expect(await verifyPassword('pw-123456', flipped)).toBe(false);
    const shortened = [...parts.slice(0, 5), hash.subarray(0, 32).toString('base64')].join('$');
    expect(await verifyPassword('pw-123456', shortened)).toBe(false);
    for (const bad of ['', 'pw-123456', `bcrypt$${parts.slice(1).join('$')}`, 'scrypt$32768$8$1$$', 'scrypt$32768$8$1']) {
      expect(await verifyPassword('pw-123456', bad)).toBe(false);
    }
  });

  it('makes an unmatchable hash in the format and with the parameters of a real one', async () => {
    const [real, unmatchable] = [await hashPassword('pw-123456'), unmatchableHash()];
    expect(unmatchable.split('$').slice(0, 4)).toEqual(real.split('$').slice(0, 4));
    expect(unmatchable.split('$').map((part) => part.length)).toEqual(real.split('$').map((part) => part.length));
    expect(unmatchableHash()).not.toBe(unmatchable);
    for (const password of ['pw-123456', '', 'password']) expect(await verifyPassword(password, unmatchable)).toBe(false);
  });
});
