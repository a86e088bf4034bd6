/** One Server-Sent Event: its `event:` name (`message` when none) and its `data:` lines joined. */
export interface StreamEvent {
  type: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: blank lines end an event, `:` lines
 * are comments (keep-alives), several `data:` lines join with newlines.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let type = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { type: type || 'message', data: data.join('\n') };
          type = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') type = text;
        else if (field === 'data') data.push(text);
      }
    }
  } finally {
    reader.releaseLock();
  }
}
