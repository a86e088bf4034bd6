import type { Readable } from 'node:stream';

/** Splits a stream into buffers of exactly `size` bytes (the last may be shorter, or empty for an empty stream). */
export async function* partsOf(body: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (pendingBytes >= size) {
      const joined = Buffer.concat(pending, pendingBytes);
      yield joined.subarray(0, size);
      pending = pendingBytes > size ? [joined.subarray(size)] : [];
      pendingBytes -= size;
    }
  }
  if (pendingBytes > 0 || pending.length === 0) yield Buffer.concat(pending, pendingBytes);
}
