import { describe, expect, it } from 'vitest';
import { pickEncoding } from './accept-encoding';

describe('pickEncoding', () => {
  const both = ['br', 'gzip'] as const;
  it('prefers brotli, then gzip, then the plain file', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(pickEncoding('gzip, deflate', both)).toBe('gzip');
    expect(pickEncoding('deflate', both)).toBeUndefined();
    expect(pickEncoding(undefined, both)).toBeUndefined();
    expect(pickEncoding('br', ['gzip'])).toBeUndefined();
  });
  it('follows q-values, and q=0 forbids a coding', () => {
    expect(pickEncoding('br;q=0.5, gzip', both)).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.1', both)).toBe('gzip');
    expect(pickEncoding('br; q=0, gzip;q=0', both)).toBeUndefined();
    expect(pickEncoding('identity', both)).toBeUndefined();
  });
  it('rates unnamed codings by the wildcard', () => {
    expect(pickEncoding('*', both)).toBe('br');
    expect(pickEncoding('*;q=0.5, br;q=0', both)).toBe('gzip');
    expect(pickEncoding('gzip;q=0.2, *;q=0', both)).toBe('gzip');
  });
});
