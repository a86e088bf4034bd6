import { finished, type Readable } from 'node:stream';

/**
 * A Node stream as an answer's body. Node's `Readable.toWeb` copies every Buffer it passes on (to detach it from
 * Buffer's shared pool, which only a byte stream handing its chunks' memory over needs): a download's every byte was
 * copied once more, and the copies left to the garbage collector. This passes the chunks themselves, pausing the
 * Node stream while the answer's writer has a chunk waiting; the writer going away (the client hung up) destroys it.
 */
export function responseBody(body: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.on('data', (chunk: Uint8Array) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) body.pause();
        });
        finished(body, (error) => {
          // Once cancelled the web stream is closed already: a late end or error has nowhere to go.
          try {
            if (error) controller.error(error);
            else controller.close();
          } catch {
            // Closed already.
          }
        });
      },
      pull() {
        body.resume();
      },
      cancel(reason) {
        body.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: body.readableHighWaterMark, size: (chunk) => chunk.byteLength },
  );
}
