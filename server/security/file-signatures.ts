import { Transform, type TransformCallback } from 'node:stream';
import { receiptTypeOfName, type ReceiptContentType } from '../../contract/expenses';
import type { StorageDriver } from '../storage/driver';

/**
 * The one check of "do the bytes say what the name says", for every upload that limits types (expense receipts,
 * file requests): the images and PDF whose first bytes are known. A renamed executable never passes as a receipt.
 */

/** What the first bytes of each known type are; WebP is a RIFF container whose form type sits at byte 8. */
const SIGNATURES: readonly { type: ReceiptContentType; test: (head: Buffer) => boolean }[] = [
  { type: 'image/png', test: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (h) => h.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) },
  { type: 'image/gif', test: (h) => ['GIF87a', 'GIF89a'].includes(h.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'application/pdf', test: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-' },
];

/** Bytes that tell every known type. */
export const SIGNATURE_BYTES = 12;

/** The known type the first bytes show, if any. */
export const typeOfBytes = (head: Buffer): ReceiptContentType | undefined => SIGNATURES.find((s) => s.test(head))?.type;

/**
 * Whether the bytes say what the name says: of the known type the name gives, or, for a name of no known type, of
 * no known type either (a PDF named `.txt` does not pass).
 */
export const bytesMatchName = (filename: string, head: Buffer): boolean => typeOfBytes(head) === receiptTypeOfName(filename);

/** Passes a stream through and keeps its first bytes, for the check once the object is stored. */
export class HeadKeeper extends Transform {
  private chunks: Buffer[] = [];
  private kept = 0;
  get head(): Buffer {
    return Buffer.concat(this.chunks);
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.kept < SIGNATURE_BYTES) {
      this.chunks.push(chunk.subarray(0, SIGNATURE_BYTES - this.kept));
      this.kept += Math.min(chunk.length, SIGNATURE_BYTES - this.kept);
    }
    callback(null, chunk);
  }
}

/** The first bytes of a stored object of `size` bytes: as many as tell its type. */
export async function storedHead(driver: StorageDriver, key: string, size: number): Promise<Buffer> {
  if (size === 0) return Buffer.alloc(0);
  const stream = await driver.get(key, { start: 0, end: Math.min(size, SIGNATURE_BYTES) - 1 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
