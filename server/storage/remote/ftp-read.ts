import type { Client } from 'basic-ftp';
import { PassThrough, Writable, type Readable } from 'node:stream';
import type { ByteRange } from '../driver';

/**
 * Measures `path` (SIZE), then starts RETR from byte `range.start` (REST) on `client` and answers the bytes as a
 * stream once the first of them (or the end of an empty file) arrived; a server that refuses the file rejects
 * instead, before any byte. FTP cannot end a transfer early and keep its connection in a known state, so a range that stops short of the
 * file's end closes the connection once its last byte arrived (the pool connects a new one); so does a reader that
 * goes away. A transfer that fails after its first byte destroys the stream with the error. `done` is called once
 * the connection is free again (or closed).
 */
export async function startDownload(client: Client, path: string, range: ByteRange | undefined, done: () => void): Promise<Readable> {
  // SIZE first: a missing file is refused by a clear reply (some servers reset the data connection before their
  // reply to RETR says why), and a range that runs to the end (a media seek) needs no cut.
  const size = await client.size(path);
  let remaining = range && range.end < size - 1 ? range.end - range.start + 1 : Infinity;
  const out = new PassThrough();
  let cut = false;
  let begun = false;
  let arrived: () => void = () => undefined;
  const firstByte = new Promise<void>((resolve) => (arrived = resolve));
  const cutShort = () => {
    cut = true;
    client.close();
  };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (cut) return callback();
      begun = true;
      arrived();
      const wanted = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
      remaining -= wanted.length;
      const flowing = out.write(wanted);
      if (remaining <= 0) {
        out.end();
        cutShort();
        return callback();
      }
      if (flowing) callback();
      else out.once('drain', () => callback());
    },
  });

  let failure: unknown;
  let finished = false;
  const settled = client
    .downloadTo(sink, path, range?.start ?? 0)
    .then(
      () => undefined,
      (error: unknown) => {
        failure = error;
      },
    )
    .then(() => {
      finished = true;
    });
  await Promise.race([firstByte, settled]);
  if (!begun && failure !== undefined) throw failure;
  out.once('close', () => {
    if (!finished) cutShort();
  });
  void settled.then(() => {
    if (failure !== undefined && !cut) out.destroy(failure instanceof Error ? failure : new Error(String(failure)));
    else if (!out.writableEnded) out.end();
    done();
  });
  return out;
}

