import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 64;
/**
 * N=2^15, r=8, p=1: OWASP's scrypt floor; 32 MiB per hash. Under vitest (`VITEST` set, as it is too for the
 * servers the browser tests start with its environment) N=2^10: the suites hash and check thousands of passwords,
 * which took a third of the server tests' time at the floor, and a hash names its own parameters, so what they test
 * does not depend on N.
 */
const PARAMS = { N: process.env.VITEST ? 1024 : 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } satisfies ScryptOptions;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, so the parameters can be raised later without breaking stored hashes. */
const encode = (salt: Buffer, key: Buffer) =>
  ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encode(salt, await derive(password, salt, PARAMS));
}

/**
 * A stored hash that no password matches (its hash part is random bytes, not derived from anything) and that costs
 * verifyPassword as much as a real one: made at once, where hashing a random password takes one scrypt.
 */
export const unmatchableHash = (): string => encode(randomBytes(16), randomBytes(KEY_LENGTH));

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const params = { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem };
  const actual = await derive(password, Buffer.from(salt, 'base64'), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** What the password of an unknown user is checked against, so that timing does not tell which user names exist. */
export const UNKNOWN_USER_HASH = unmatchableHash();
