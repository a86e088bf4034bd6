/**
 * Upload bodies on the real built server, read from Node's request itself (server/http.ts `requestBody`): a body
 * over a signed URL's size is refused with a 413 answer on the same connection, not a reset; a part whose client
 * goes away mid-body is dropped and the upload goes on; a part typed as JSON, which the API's size check reads
 * first, still arrives whole; what is stored is byte-exact.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fsMultipartInitSchema, fsPartSchema, fsPresignSchema } from '../../contract/fs';
import { MIN_PART_BYTES } from '../../contract/parts';
import { builtAdminInstance } from '../fixtures/instances';
import { md5, stagedPartEtag } from '../fixtures/files';

const ADMIN_PASSWORD = 'bodies read straight from node';

interface Answer {
  status: number;
  text: string;
}

interface SendOptions {
  /** The client goes away after this many bytes: the answer is then what the socket said ('reset'). */
  cutAfter?: number;
  type?: string;
  /** With its length declared; else chunked, so that only the server's own count can stop it. */
  declared?: boolean;
}

/** PUTs or POSTs `body` over node:http. */
function send(url: string, method: string, token: string | undefined, body: Buffer, { cutAfter, type = 'application/octet-stream', declared = false }: SendOptions = {}): Promise<Answer | 'reset'> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      'content-type': type,
      ...(token && { authorization: `Bearer ${token}` }),
      ...(declared && { 'content-length': String(body.length) }),
    };
    const sent = request(url, { method, headers }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
    });
    sent.on('error', () => resolve('reset'));
    let written = 0;
    const pump = () => {
      while (written < body.length) {
        const chunk = body.subarray(written, written + 65536);
        if (cutAfter !== undefined && written + chunk.length > cutAfter) {
          sent.write(chunk.subarray(0, cutAfter - written), () => setTimeout(() => sent.destroy(), 100));
          return;
        }
        written += chunk.length;
        if (!sent.write(chunk)) {
          sent.once('drain', pump);
          return;
        }
      }
      sent.end();
    };
    pump();
  });
}

describe('upload bodies on the built server', () => {
  const server = builtAdminInstance({ ADMIN_PASSWORD }, 'bodies');
  const { call, ok } = server;

  it("answers a body over a signed URL's size with a 413 on the same connection, and keeps nothing", async () => {
    const signed = await ok(call(server.instance(), '/api/admin/fs/presign', { json: { path: '/local', fileName: 'signed.bin', fileSize: 1000 } }), fsPresignSchema);
    const answer = await send(signed.uploadUrl, 'PUT', undefined, randomBytes(5 * 1024 * 1024));
    expect(answer).toMatchObject({ status: 413 });
    expect(JSON.parse((answer as Answer).text)).toMatchObject({ code: 413, success: false, data: { error: 'too_large', size: 1000 } });
    expect((await call(server.instance(), `/api/admin/fs/get?path=${encodeURIComponent('/local/signed.bin')}`)).status).toBe(404);
    // The URL still takes the body it was signed for.
    expect(await send(signed.uploadUrl, 'PUT', undefined, randomBytes(1000))).toMatchObject({ status: 200 });
  }, 60_000);

  it('drops a part whose client goes away mid-body; the part sent again completes the file byte-exact', async () => {
    const bytes = randomBytes(MIN_PART_BYTES + 4096);
    const parts = [bytes.subarray(0, MIN_PART_BYTES), bytes.subarray(MIN_PART_BYTES)];
    const init = await ok(call(server.instance(), '/api/admin/fs/multipart/init', { json: { path: '/local', filename: 'parts.bin', fileSize: bytes.length } }), fsMultipartInitSchema, 201);
    if (init.outcome === 'skipped') throw new Error('nothing was there to skip');
    const partUrl = (partNumber: number) =>
      `${server.instance().origin}/api/admin/fs/multipart/part?${new URLSearchParams({ path: init.path, uploadId: init.uploadId, key: init.key, partNumber: String(partNumber) })}`;

    expect(await send(partUrl(1), 'POST', server.token(), Buffer.from(parts[0]!), { cutAfter: 1024 * 1024 })).toBe('reset');
    const sent = async (partNumber: number, options?: SendOptions) => {
      const answer = await send(partUrl(partNumber), 'POST', server.token(), Buffer.from(parts[partNumber - 1]!), options);
      expect(answer).toMatchObject({ status: 200 });
      return v.parse(fsPartSchema, (JSON.parse((answer as Answer).text) as { data: unknown }).data);
    };
    // Typed as JSON, chunked or with its length: the API's JSON size check reads such a body first (whole, or its
    // stream made), and the part must still arrive whole.
    const stored = [await sent(1), await sent(2, { type: 'application/json' })];
    expect(await sent(1, { type: 'application/json', declared: true })).toEqual(stored[0]);
    expect(stored.map(({ etag, size }) => ({ etag, size }))).toEqual(parts.map((part) => ({ etag: stagedPartEtag(Buffer.from(part)), size: part.length })));
    const completed = await call(server.instance(), '/api/admin/fs/multipart/complete', {
      json: { path: init.path, uploadId: init.uploadId, key: init.key, parts: stored.map(({ partNumber, etag }) => ({ partNumber, etag })) },
    });
    expect(completed.status).toBe(201);
    const download = await call(server.instance(), `/api/admin/fs/download?path=${encodeURIComponent(init.path)}`);
    expect(md5(Buffer.from(await download.arrayBuffer()))).toBe(md5(bytes));
  }, 60_000);
});
