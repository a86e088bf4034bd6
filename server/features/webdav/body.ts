import type { Document } from '@xmldom/xmldom';
import { DavError } from './errors';
import { parseXml } from './xml';

/** XML bodies (PROPFIND, PROPPATCH, LOCK) are small; anything larger is refused before it is read whole. */
const MAX_XML_BODY_BYTES = 1024 * 1024;

/** The request's XML body, or undefined when it has none. */
export async function xmlBodyOf(raw: Request): Promise<Document | undefined> {
  const declared = Number(raw.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_XML_BODY_BYTES) throw new DavError(413);
  if (!raw.body) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of raw.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_XML_BODY_BYTES) throw new DavError(413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.trim() === '' ? undefined : parseXml(text);
}
