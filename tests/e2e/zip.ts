import { createHash } from 'node:crypto';

/** The entries of a zip whose files are stored (not compressed), read from its central directory. */
export function storedZipEntries(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let index = 0; index < count; index++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (method !== 0) throw new Error(`${name} is compressed (method ${method}), not stored`);
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    entries.set(name, zip.subarray(dataStart, dataStart + size));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Each entry's SHA-256, by name. */
export const zipDigests = (zip: Buffer): Record<string, string> =>
  Object.fromEntries([...storedZipEntries(zip)].map(([name, bytes]) => [name, createHash('sha256').update(bytes).digest('hex')]));
