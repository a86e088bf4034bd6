import type { Readable } from 'node:stream';
import { ApiError } from '../errors';
import { ObjectNotFoundError, type StorageDriver } from './driver';
import { contentDisposition, needsSandbox, parseRange } from './http-headers';
import { responseBody } from './response-body';

/** Headers a page on another origin may read from our file answers (ETag for multipart uploads, ranges). */
export const EXPOSED_HEADERS = 'ETag, Content-Length, Content-Range, Content-Disposition, Accept-Ranges';

export interface ObjectToServe {
  driver: StorageDriver;
  key: string;
  size: number;
  /** Without quotes; null when unknown. */
  etag: string | null;
  contentType: string;
  disposition: 'inline' | 'attachment';
  filename: string;
  /**
   * Hands the storage's stream on, to be watched on its way (a large download in the admin's task manager): the
   * same bytes, counted. The length is what this answer sends.
   */
  relay?: (body: Readable, length: number) => Readable;
}

/**
 * Streams a stored object with Range support: 206 with Content-Range for one satisfiable range, 416 for an
 * unsatisfiable one, the whole object otherwise. Never buffered: the storage stream is handed to the response.
 * Served with `X-Content-Type-Options: nosniff` and, for anything but a PDF shown inline,
 * `Content-Security-Policy: sandbox`, so an uploaded HTML or SVG file never runs as our origin.
 */
export async function serveObject(httpRequest: Request, object: ObjectToServe): Promise<Response> {
  const headers = new Headers({
    // Text without a declared charset is read as UTF-8, not the browser's locale default.
    'Content-Type': /^text\/[^;]+$/.test(object.contentType) ? `${object.contentType}; charset=utf-8` : object.contentType,
    'Content-Disposition': contentDisposition(object.disposition, object.filename),
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-cache',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  });
  // An attachment is not for rendering: sandboxed whatever its type, should a browser render it after all.
  if (object.disposition === 'attachment' || needsSandbox(object.contentType)) headers.set('Content-Security-Policy', 'sandbox');
  const etag = object.etag ? `"${object.etag}"` : undefined;
  if (etag) headers.set('ETag', etag);

  const ifRange = httpRequest.headers.get('if-range') ?? undefined;
  const request = ifRange !== undefined && ifRange !== etag ? ({ kind: 'whole' } as const) : parseRange(httpRequest.headers.get('range') ?? undefined, object.size);
  if (request.kind === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${object.size}`);
    headers.delete('Content-Type');
    return new Response(null, { status: 416, headers });
  }
  const range = request.kind === 'partial' ? request.range : undefined;
  const length = range ? range.end - range.start + 1 : object.size;
  headers.set('Content-Length', String(length));
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${object.size}`);
  const status = range ? 206 : 200;
  if (httpRequest.method === 'HEAD' || length === 0) return new Response(null, { status, headers });

  let body: Readable;
  try {
    body = await object.driver.get(object.key, range);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw new ApiError(404, 'file_missing');
    throw error;
  }
  const relayed = object.relay ? object.relay(body, length) : body;
  return new Response(responseBody(relayed), { status, headers });
}
