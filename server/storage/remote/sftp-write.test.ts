import { Readable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { writeFile } from './sftp-write';

interface WriteRequest {
  position: number;
  bytes: Buffer;
  answer: (error?: Error) => void;
}

/**
 * Enough of ssh2's SFTP session for writeFile, answering write requests only when the test says: it sees how many
 * are in flight at once and where each one writes. (sftp.test.ts writes through real servers.)
 */
function fakeSession(maxWriteLen: number, { holdOpen = false } = {}) {
  const pending: WriteRequest[] = [];
  let requests = 0;
  let pendingAtClose: number | undefined;
  const written: { position: number; bytes: Buffer }[] = [];
  let mostInFlight = 0;
  let closed = 0;
  let onRequest = () => {};
  const sftp = {
    _maxWriteLen: maxWriteLen,
    open: (_path: string, _flags: string, callback: (error: Error | undefined, handle: Buffer) => void) => {
      if (!holdOpen) setImmediate(() => callback(undefined, Buffer.from('h')));
    },
    write: (_handle: Buffer, buffer: Buffer, offset: number, length: number, position: number, callback: (error?: Error) => void) => {
      const bytes = Buffer.from(buffer.subarray(offset, offset + length));
      pending.push({
        position,
        bytes,
        answer: (error) => {
          if (!error) written.push({ position, bytes });
          callback(error);
        },
      });
      requests += 1;
      mostInFlight = Math.max(mostInFlight, pending.length);
      onRequest();
    },
    close: (_handle: Buffer, callback: (error?: Error) => void) => {
      closed += 1;
      pendingAtClose = pending.length;
      setImmediate(() => callback());
    },
  };
  let goneListener: (() => void) | undefined;
  return {
    connection: {
      sftp: sftp as unknown as SFTPWrapper,
      onGone: (listener: () => void) => {
        goneListener = listener;
        return () => void (goneListener = undefined);
      },
    },
    /** Answers every request in flight, oldest first, until `write` settles. */
    answerAll(write: Promise<void>) {
      let settled = false;
      void write.finally(() => (settled = true)).catch(() => undefined);
      const answer = () => {
        if (settled) return;
        const next = pending.shift();
        if (next) next.answer();
        setImmediate(answer);
      };
      answer();
    },
    pending,
    whenRequested: (count: number) =>
      new Promise<void>((resolve) => {
        onRequest = () => pending.length >= count && resolve();
        if (pending.length >= count) resolve();
      }),
    gone: () => goneListener?.(),
    written,
    mostInFlight: () => mostInFlight,
    closed: () => closed,
    requests: () => requests,
    pendingAtClose: () => pendingAtClose,
  };
}

describe('writeFile (SFTP writes in flight)', () => {
  it('writes the body in order, in requests within the server limit, up to 16 at once, then closes the handle', async () => {
    const session = fakeSession(1000);
    const body = Buffer.from(Array.from({ length: 50_000 }, (_, index) => index % 251));
    const write = writeFile(session.connection, '/file.bin', Readable.from([body.subarray(0, 12_345), body.subarray(12_345)]));
    await session.whenRequested(16);
    // Sixteen requests wait for their answers, and no seventeenth is sent meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.pending).toHaveLength(16);
    session.answerAll(write);
    await write;
    expect(session.mostInFlight()).toBe(16);
    expect(session.written.every(({ bytes }) => bytes.length <= 1000)).toBe(true);
    expect(session.written.map(({ position }) => position)).toEqual([...session.written.map(({ position }) => position)].sort((a, b) => a - b));
    expect(Buffer.concat(session.written.map(({ bytes }) => bytes))).toEqual(body);
    expect(session.closed()).toBe(1);
  });

  it('fails on a refused request: no request is sent after it, the others settle, then the handle closes', async () => {
    const session = fakeSession(1000);
    let pulled = 0;
    let bodyClosed = false;
    const body = Readable.from(
      (function* () {
        try {
          for (let index = 0; index < 50; index += 1) {
            pulled += 1;
            yield Buffer.alloc(4000, index);
          }
        } finally {
          bodyClosed = true;
        }
      })(),
    );
    const write = writeFile(session.connection, '/file.bin', body);
    await session.whenRequested(16);
    session.pending.splice(3, 1)[0]!.answer(Object.assign(new Error('Permission denied'), { code: 3 }));
    session.answerAll(write);
    await expect(write).rejects.toThrow('Permission denied');
    expect(session.requests()).toBe(16);
    expect(pulled).toBeLessThan(10);
    expect(bodyClosed).toBe(true);
    expect(session.pendingAtClose()).toBe(0);
    expect(session.closed()).toBe(1);
  });

  it('fails as the connection closed (ECONNRESET) when ssh2 gives up on the requests in flight, or the connection ends, open or not', async () => {
    const cut = fakeSession(1000);
    const cutWrite = writeFile(cut.connection, '/file.bin', Readable.from([Buffer.alloc(40_000)]));
    await cut.whenRequested(16);
    for (const request of cut.pending.splice(0)) request.answer(new Error('No response from server'));
    await expect(cutWrite).rejects.toMatchObject({ code: 'ECONNRESET', message: 'The SFTP connection closed during the write' });

    const silent = fakeSession(1000);
    const silentWrite = writeFile(silent.connection, '/file.bin', Readable.from([Buffer.alloc(40_000)]));
    await silent.whenRequested(16);
    silent.gone();
    await expect(silentWrite).rejects.toMatchObject({ code: 'ECONNRESET' });

    const unopened = fakeSession(1000, { holdOpen: true });
    const unopenedWrite = writeFile(unopened.connection, '/file.bin', Readable.from([Buffer.alloc(10)]));
    await new Promise((resolve) => setImmediate(resolve));
    unopened.gone();
    await expect(unopenedWrite).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(unopened.closed()).toBe(0);
  });
});
