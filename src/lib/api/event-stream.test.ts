import { describe, expect, it } from 'vitest';
import { readEvents } from './event-stream';

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

async function all(body: ReadableStream<Uint8Array>) {
  const events = [];
  for await (const event of readEvents(body)) events.push(event);
  return events;
}

describe('readEvents', () => {
  it('parses named events, joins data lines and skips keep-alive comments, across chunk boundaries', async () => {
    const events = await all(streamOf('event: job\nda', 'ta: {"a":1}\n\n: keep-alive\n\ndata: one\ndata: two\r\n\r\n'));
    expect(events).toEqual([
      { type: 'job', data: '{"a":1}' },
      { type: 'message', data: 'one\ntwo' },
    ]);
  });

  it('drops an event cut off before its blank line', async () => {
    expect(await all(streamOf('event: job\ndata: {"a":1}\n\nevent: job\ndata: {"b"'))).toEqual([{ type: 'job', data: '{"a":1}' }]);
  });
});
