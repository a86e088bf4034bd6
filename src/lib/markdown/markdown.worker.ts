import { markdownToUnsafeHtml } from '../../../contract/markdown';
import type { ParseReply, ParseRequest } from './parse';

/** Parses Markdown off the page's main thread: see parse.ts. */
self.onmessage = ({ data: { id, markdown } }: MessageEvent<ParseRequest>) => {
  let reply: ParseReply;
  try {
    reply = { id, html: markdownToUnsafeHtml(markdown) };
  } catch (error) {
    reply = { id, error: String(error) };
  }
  self.postMessage(reply);
};
