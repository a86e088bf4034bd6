import type { Readable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';
import { closedDuring, connectionEnd, type SftpConnection } from './sftp-connect';

/**
 * Bytes per SFTP write request, at most the server's limit as ssh2 learnt it (its `_maxWriteLen`): ssh2 cuts a
 * larger request in two and sends the rest only once the first is answered, after later requests, and servers that
 * write in order (rclone) refuse that. The fallback, under every server's limit, is for an ssh2 without that field.
 */
const chunkBytesOf = (sftp: SFTPWrapper) => Math.min(256 * 1024, (sftp as { _maxWriteLen?: number })._maxWriteLen ?? 31 * 1024);
/** Requests kept in flight (0.5–4 MiB by the server's limit), where ssh2's own write stream waits for each answer in turn. */
const REQUESTS_IN_FLIGHT = 16;

/** ssh2's answer to every request still pending when the channel closes. */
const NO_RESPONSE = 'No response from server';

/** ssh2's callback as a promise; a request the closing channel gave up on fails as the connection's end. */
const answered = <T>(send: (callback: (error: Error | null | undefined, value: T) => void) => void) =>
  new Promise<T>((resolve, reject) =>
    send((error, value) => (!error ? resolve(value) : reject(error.message === NO_RESPONSE ? closedDuring('write') : error))),
  );

/**
 * `body` written to a new (or emptied) remote file, with several write requests in flight so that a long body is
 * not paced by one round trip per request. Resolves once every request is answered and the handle is closed (a
 * server may report a failed write only at the close). The first failure of a request, of the body or of the
 * connection fails the write, once the requests in flight have settled: the caller then removes what was written,
 * and no write of this call lands after that.
 */
export async function writeFile({ sftp, onGone }: Pick<SftpConnection, 'sftp' | 'onGone'>, path: string, body: Readable): Promise<void> {
  // ssh2 leaves requests sent after the connection closed unanswered: the end of the connection fails the wait,
  // from the open on.
  const { gone, stopListening } = connectionEnd(onGone, 'write');
  const closeHandle = (open: Buffer) => Promise.race([answered<void>((callback) => sftp.close(open, (error) => callback(error, undefined))), gone]);
  const inFlight = new Set<Promise<void>>();
  let handle: Buffer | undefined;
  try {
    handle = await Promise.race([answered<Buffer>((callback) => sftp.open(path, 'w', callback)), gone]);
    const open = handle;
    let failed: { error: unknown } | undefined;
    const chunkBytes = chunkBytesOf(sftp);
    let position = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      for (let offset = 0; offset < chunk.length; offset += chunkBytes) {
        while (inFlight.size >= REQUESTS_IN_FLIGHT) await Promise.race([...inFlight, gone]);
        if (failed) throw failed.error;
        const length = Math.min(chunkBytes, chunk.length - offset);
        const request: Promise<void> = answered<void>((callback) => sftp.write(open, chunk, offset, length, position, (error) => callback(error, undefined))).then(
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
    // Closed here once: a close that fails is not tried again below.
    handle = undefined;
    await closeHandle(open);
  } catch (error) {
    body.destroy();
    if (handle) {
      await Promise.race([Promise.allSettled(inFlight), gone]).catch(() => undefined);
      await closeHandle(handle).catch(() => undefined);
    }
    throw error;
  } finally {
    stopListening();
  }
}
