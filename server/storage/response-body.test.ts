import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { responseBody } from './response-body';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('responseBody', () => {
  it('passes the stream’s own chunks on, in order, and ends with it', async () => {
    const sent = [Buffer.alloc(70_000, 1), Buffer.alloc(10, 2), Buffer.alloc(300_000, 3)];
    const received = await readAll(responseBody(Readable.from(sent, { objectMode: false })));
    expect(received).toHaveLength(3);
    received.forEach((chunk, index) => expect(chunk.buffer).toBe(sent[index]?.buffer));
  });

  it('fails the answer’s body when the stream fails', async () => {
    const source = new PassThrough();
    const reading = readAll(responseBody(source));
    source.write(Buffer.from('a'));
    source.destroy(new Error('the storage went away'));
    await expect(reading).rejects.toThrow('the storage went away');
  });

  it('pauses the stream while a chunk waits, and destroys it when the reader gives up', async () => {
    const source = new PassThrough({ highWaterMark: 1024 });
    const body = responseBody(source);
    source.write(Buffer.alloc(4096));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    const reader = body.getReader();
    expect((await reader.read()).value?.byteLength).toBe(4096);
    await reader.cancel();
    if (!source.destroyed) await once(source, 'close');
    expect(source.destroyed).toBe(true);
  });
});
