import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { parseRange } from '../storage/http-headers';
import { pickEncoding, type ContentCoding } from './accept-encoding';
import { responseBody } from '../storage/response-body';

/** Where scripts/precompress.mjs puts each coding of a built file. */
const SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };
const CODINGS = Object.keys(SUFFIX) as ContentCoding[];

async function fileStats(path: string): Promise<Stats | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

/** Strong per-variant validator: each coding is its own representation (RFC 9110 §8.8.3), so its ETag differs. */
function etagOf(stats: Stats, coding: ContentCoding | undefined): string {
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${coding ? `-${coding}` : ''}"`;
}

/**
 * Sends a built file, or `undefined` when there is none at `path`. The browser gets the precompressed variant its
 * `Accept-Encoding` prefers (br, then gzip), else the plain file. A variant older than its plain file (the file was
 * replaced after the build) is never sent. Range requests get byte ranges of the plain file, uncompressed: a range
 * of compressed bytes is useless to a client that asked for part of the content.
 */
export async function serveFile(c: Context, path: string): Promise<Response | undefined> {
  const plain = await fileStats(path);
  if (!plain) return undefined;
  const variants = await Promise.all(
    CODINGS.map(async (coding) => {
      const stats = await fileStats(path + SUFFIX[coding]);
      return stats && stats.mtimeMs >= plain.mtimeMs ? { coding, stats } : undefined;
    }),
  );
  const available = variants.filter((variant) => variant !== undefined);
  const headers = new Headers({ 'Content-Type': getMimeType(path) ?? 'application/octet-stream', 'Accept-Ranges': 'bytes' });
  if (available.length > 0) headers.set('Vary', 'Accept-Encoding');
  headers.set('Last-Modified', plain.mtime.toUTCString());

  const rangeHeader = c.req.header('range');
  if (rangeHeader !== undefined && c.req.method === 'GET') {
    headers.set('ETag', etagOf(plain, undefined));
    const request = parseRange(rangeHeader, plain.size);
    if (request.kind === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${plain.size}`);
      return new Response(null, { status: 416, headers });
    }
    if (request.kind === 'partial') {
      const { range } = request;
      headers.set('Content-Range', `bytes ${range.start}-${range.end}/${plain.size}`);
      headers.set('Content-Length', String(range.end - range.start + 1));
      return new Response(fileBody(path, range), { status: 206, headers });
    }
  }

  const coding = pickEncoding(c.req.header('accept-encoding'), available.map((variant) => variant.coding));
  const chosen = available.find((variant) => variant.coding === coding);
  const stats = chosen?.stats ?? plain;
  const etag = etagOf(stats, chosen?.coding);
  headers.set('ETag', etag);
  if (chosen) headers.set('Content-Encoding', chosen.coding);
  if (c.req.header('if-none-match')?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Length', String(stats.size));
  if (c.req.method === 'HEAD' || stats.size === 0) return new Response(null, { status: 200, headers });
  return new Response(fileBody(chosen ? path + SUFFIX[chosen.coding] : path), { status: 200, headers });
}

function fileBody(path: string, range?: { start: number; end: number }): ReadableStream<Uint8Array> {
  return responseBody(createReadStream(path, range));
}
