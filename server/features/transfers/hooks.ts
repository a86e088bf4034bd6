import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { WATCHED_DOWNLOAD_BYTES, type Actor, type TransferKind } from '../../../contract/jobs';
import type { AppDeps, Principal } from '../../context';
import { transfersOf, type Transfer, type TransferStart } from './registry';

/**
 * What the upload and download paths call: who a principal is in the task manager, and streams that count their
 * bytes into a transfer.
 */

/** Someone with a link and no account (the page names them). */
export const VISITOR: Actor = { kind: 'visitor', name: '' };

export function actorOf(principal: Principal): Actor {
  if (principal.kind === 'admin') return { kind: 'admin', name: principal.username };
  if (principal.kind === 'apiKey') return { kind: 'apiKey', name: principal.name, id: principal.keyId };
  return VISITOR;
}

/** `body` passed through unchanged, each chunk counted into `transfer` (the caller ends it with the outcome). */
export function counted(body: Readable, transfer: Pick<Transfer, 'progress'>): Readable {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      transfer.progress(chunk.length);
      callback(null, chunk);
    },
  });
  // pipeline, not pipe: either side failing or closing early destroys the other, as the unwatched stream would be.
  return pipeline(body, counter, () => undefined);
}

/**
 * For `serveObject`'s `relay`: a download larger than `WATCHED_DOWNLOAD_BYTES` becomes a transfer that ends with its
 * stream: completed when every byte went, cancelled when the client went away first, failed when storage broke.
 */
export function watchedDownload(deps: Pick<AppDeps, 'db' | 'now'>, kind: TransferKind, who: Actor, name: string) {
  return (body: Readable, length: number): Readable => {
    if (length <= WATCHED_DOWNLOAD_BYTES) return body;
    const transfer = transfersOf(deps).start({ kind, who, name, bytesTotal: length });
    const stream = counted(body, transfer);
    let failed = false;
    body.on('error', () => {
      failed = true;
    });
    stream.on('end', () => transfer.end('completed'));
    stream.on('close', () => transfer.end(failed ? 'failed' : 'cancelled'));
    return stream;
  };
}

/** A multipart upload's transfer is named after its upload id (hashed: storage ids are long and need not show). */
const uploadTransferId = (uploadId: string) => createHash('sha256').update(uploadId).digest('hex').slice(0, 32);

/**
 * At a multipart upload's init: one transfer until its complete or abort, whichever request or instance sees those.
 * Written before init answers, so that the next request finds it on any instance.
 */
export async function startUploadTransfer(deps: Pick<AppDeps, 'db' | 'now'>, uploadId: string, start: Omit<TransferStart, 'id'>): Promise<void> {
  const registry = transfersOf(deps);
  registry.start({ ...start, id: uploadTransferId(uploadId) });
  await registry.flush();
}

/** The transfer of a multipart upload begun by an earlier request (a handle that reports nothing when unknown). */
export const uploadTransfer = (deps: Pick<AppDeps, 'db' | 'now'>, uploadId: string) => transfersOf(deps).resume(uploadTransferId(uploadId));

/**
 * A form upload's request with its body counted into a new transfer (its length the declared one); `settle` ends the
 * transfer with the outcome of the work done on it.
 */
export function watchedRequest(deps: Pick<AppDeps, 'db' | 'now'>, request: Request, start: Omit<TransferStart, 'id' | 'bytesTotal'>) {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const transfer = transfersOf(deps).start({ ...start, bytesTotal: Number.isFinite(declared) ? declared : null });
  const body = request.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        transfer.progress(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
  const watched = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal, duplex: 'half' } as RequestInit);
  const settle = <T>(work: Promise<T>): Promise<T> =>
    work.then(
      (result) => {
        transfer.end('completed');
        return result;
      },
      (error: unknown) => {
        transfer.end('failed');
        throw error;
      },
    );
  return { request: watched, transfer, settle };
}
