import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** A running digest of the bytes that pass, as lowercase hex. */
export interface Digest {
  update(chunk: Uint8Array): void;
  hex(): string;
}

/** MD5: the ETag of a whole LOCAL object, as S3 gives one, and the name of parts staged by earlier versions. */
export function md5Digest(): Digest {
  const hash = createHash('md5');
  return { update: (chunk) => void hash.update(chunk), hex: () => hash.digest('hex') };
}

/**
 * CRC-32: what a staged part is named by and answers as its ETag. The name checks that the bytes joined are those
 * stored (a file cut short or changed fails the join) and tells two copies of a part apart, but for one chance in
 * four billion; it need not resist a forger, as only the uploader's own parts ever meet. Hashing each part as it
 * arrives was the largest CPU cost of an upload through this server, and CRC-32 runs at several GB/s where MD5 runs
 * below one.
 */
export function crc32Digest(): Digest {
  let value = 0;
  return {
    update: (chunk) => {
      value = crc32(chunk, value);
    },
    hex: () => value.toString(16).padStart(8, '0'),
  };
}

/** The digest a stored part's ETag was made with: 8 hex digits are a CRC-32, 32 an MD5 (staged by an earlier version). */
export const partDigestOf = (etag: string): Digest => (etag.length === 8 ? crc32Digest() : md5Digest());
