import type { Readable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';
import { closedDuring, type SftpConnection } from './sftp-connect';

/**
 * Bytes per SFTP write request, at most the server's limit as ssh2 learnt it: ssh2 cuts a larger request in two and
 * sends the rest only once the first is answered, after later requests, and servers that write in order (rclone)
 * refuse that. 31 KiB is under every server's limit, when ssh2 does not say.
 */
const chunkBytesOf = (sftp: SFTPWrapper) => Math.min(256 * 1024, (sftp as { _maxWriteLen?: number })._maxWriteLen ?? 31 * 1024);
/** Requests kept in flight (0.5–4 MiB by the server's limit), where ssh2's own write stream waits for each answer in turn. */
const REQUESTS_IN_FLIGHT = 16;

const openForWrite = (sftp: SFTPWrapper, path: string) =>
  new Promise<Buffer>((resolve, reject) => sftp.open(path, 'w', (error, handle) => (error ? reject(error) : resolve(handle))));

/** ssh2's answer to every request still pending when the channel closes. */
const NO_RESPONSE = 'No response from server';

const writeAt = (sftp: SFTPWrapper, handle: Buffer, chunk: Buffer, offset: number, length: number, position: number) =>
  new Promise<void>((resolve, reject) =>
    sftp.write(handle, chunk, offset, length, position, (error) => (!error ? resolve() : reject(error.message === NO_RESPONSE ? closedDuring('write') : error))),
  );

const closeHandle = (sftp: SFTPWrapper, handle: Buffer) =>
  new Promise<void>((resolve, reject) => sftp.close(handle, (error) => (error ? reject(error) : resolve())));

/**
 * `body` written to a new (or emptied) remote file, with several write requests in flight so that a long body is
 * not paced by one round trip per request. Resolves once every request is answered and the handle is closed (a
 * server may report a failed write only at the close). The first failure of a request, of the body or of the
 * connection fails the write; the caller removes what was written.
 */
export async function writeFile({ sftp, onGone }: Pick<SftpConnection, 'sftp' | 'onGone'>, path: string, body: Readable): Promise<void> {
  const handle = await openForWrite(sftp, path);
  let stopListening = () => {};
  // ssh2 leaves requests sent after the connection closed unanswered: the end of the connection fails the wait.
  const gone = new Promise<never>((_resolve, reject) => {
    stopListening = onGone(() => reject(closedDuring('write')));
  });
  gone.catch(() => undefined);
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  const settleOne = () => Promise.race([...inFlight, gone]);
  try {
    const chunkBytes = chunkBytesOf(sftp);
    let position = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      for (let offset = 0; offset < chunk.length; offset += chunkBytes) {
        while (inFlight.size >= REQUESTS_IN_FLIGHT) await settleOne();
        if (failed) throw failed.error;
        const length = Math.min(chunkBytes, chunk.length - offset);
        const request: Promise<void> = writeAt(sftp, handle, chunk, offset, length, position).then(
          () => void inFlight.delete(request),
          (error: unknown) => {
            failed ??= { error };
            throw error;
          },
        );
        // A request failing while the body is read must not become an unhandled rejection; it fails the next wait.
        request.catch(() => undefined);
        inFlight.add(request);
        position += length;
      }
    }
    await Promise.race([Promise.all(inFlight), gone]);
  } catch (error) {
    stopListening();
    body.destroy();
    sftp.close(handle, () => undefined);
    throw error;
  }
  try {
    await Promise.race([closeHandle(sftp, handle), gone]);
  } finally {
    stopListening();
  }
}
