import { Readable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';
import { connectionEnd, type SftpConnection } from './sftp-connect';

/** Bytes asked per SFTP read request (every server answers 32 KiB; OpenSSH up to 256 KiB). */
const CHUNK_BYTES = 64 * 1024;
/** Requests kept in flight ahead of the reader: 1 MiB, where ssh2's own stream waits for each answer in turn. */
const REQUESTS_AHEAD = 16;

const open = (sftp: SFTPWrapper, path: string) =>
  new Promise<Buffer>((resolve, reject) => sftp.open(path, 'r', (error, handle) => (error ? reject(error) : resolve(handle))));

/** `length` bytes at `position`; a short answer is completed by more requests, an early end of file fails. */
function readAt(sftp: SFTPWrapper, handle: Buffer, position: number, length: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    sftp.read(handle, Buffer.allocUnsafe(length), 0, length, position, (error, bytesRead, buffer) => {
      if (error) return reject(error);
      if (bytesRead === 0) return reject(new Error('The file ended before the bytes asked for (it shrank meanwhile)'));
      const got = buffer.subarray(0, bytesRead);
      if (bytesRead === length) return resolve(got);
      readAt(sftp, handle, position + bytesRead, length - bytesRead).then((rest) => resolve(Buffer.concat([got, rest])), reject);
    });
  });
}

/**
 * The bytes [start, end) of a remote file as a stream, with several read requests in flight so that a long body
 * is not paced by one round trip per chunk. Reading stops at `end` even if the file grew; its handle is closed
 * when the stream ends, fails or is destroyed. The connection's end fails the stream: ssh2 leaves a request sent
 * after the close unanswered, and a reader that had paused would have waited for it forever.
 */
export async function readRange({ sftp, onGone }: Pick<SftpConnection, 'sftp' | 'onGone'>, path: string, start: number, end: number): Promise<Readable> {
  const handle = await open(sftp, path);
  async function* chunks() {
    const { gone, stopListening } = connectionEnd(onGone, 'read');
    const queue: Promise<Buffer>[] = [];
    let position = start;
    const askAhead = () => {
      while (queue.length < REQUESTS_AHEAD && position < end) {
        const length = Math.min(CHUNK_BYTES, end - position);
        const answer = readAt(sftp, handle, position, length);
        // An answer left behind by a reader that gave up must not become an unhandled rejection.
        answer.catch(() => undefined);
        queue.push(answer);
        position += length;
      }
    };
    try {
      askAhead();
      for (let next = queue.shift(); next; next = queue.shift()) {
        const chunk = await Promise.race([next, gone]);
        askAhead();
        yield chunk;
      }
    } finally {
      stopListening();
      sftp.close(handle, () => undefined);
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK_BYTES });
}
