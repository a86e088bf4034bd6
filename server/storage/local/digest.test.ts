import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32Digest, md5Digest, partDigestOf } from './digest';

const digestOf = (digest: ReturnType<typeof md5Digest>, chunks: string[]) => {
  for (const chunk of chunks) digest.update(Buffer.from(chunk));
  return digest.hex();
};

describe('digests', () => {
  it('gives the CRC-32 and MD5 of bytes that arrive in chunks', () => {
    expect(digestOf(crc32Digest(), ['1234', '56789'])).toBe('cbf43926');
    expect(digestOf(crc32Digest(), [])).toBe('00000000');
    expect(digestOf(md5Digest(), ['1234', '56789'])).toBe(createHash('md5').update('123456789').digest('hex'));
  });

  it('tells a stored part’s digest by its length', () => {
    expect(digestOf(partDigestOf('cbf43926'), ['123456789'])).toBe('cbf43926');
    const md5 = createHash('md5').update('x').digest('hex');
    expect(digestOf(partDigestOf(md5), ['x'])).toBe(md5);
  });
});
