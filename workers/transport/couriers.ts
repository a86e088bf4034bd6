import type { TransferError } from '../../contract/transfer';
import { cancelled, TransferFailure } from '../engine/failure';
import type { SourceRead } from './source-io';

/** What the engine asks of a courier (workers/courier.worker.ts). */
export type CourierRequest =
  | { type: 'read'; id: number; read: SourceRead }
  | { type: 'send'; id: number; blob: number; from: number; to: number; url: string; headers?: Record<string, string>; timeoutMs: number }
  | { type: 'abort'; id: number };

/** What a courier answers: a read done, a send's progress and answer, or a failure (a TransferError). */
export type CourierAnswer =
  | { type: 'read'; id: number }
  | { type: 'progress'; id: number; loaded: number }
  | { type: 'sent'; id: number; status: number; etag: string | null }
  | { type: 'failed'; id: number; error: TransferError };

/** Bytes a courier reads before it takes no more reads: its blobs hold at most this and one more read. */
export const COURIER_READ_BYTES = 64 * 1024 * 1024;

/**
 * Bytes read by a courier, held there as a blob: the engine hands out slices of them and has them sent, and never
 * sees a byte. `size` and `slice` are a Blob's, so that a copy's readers work on either.
 */
export class CourierBytes {
  constructor(
    readonly courier: Courier,
    readonly blob: number,
    readonly from: number,
    readonly to: number,
  ) {}

  get size(): number {
    return this.to - this.from;
  }

  slice(from: number, to: number): CourierBytes {
    return new CourierBytes(this.courier, this.blob, this.from + Math.min(from, this.size), this.from + Math.min(to, this.size));
  }
}

/** The parts of a Worker a courier uses: a real one in the engine, a fake in unit tests. */
export type CourierWorker = Pick<Worker, 'postMessage' | 'terminate'> & {
  onmessage: ((event: MessageEvent<CourierAnswer>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
};

const startCourierWorker = (): CourierWorker => new Worker(new URL('../courier.worker.ts', import.meta.url), { type: 'module', name: 'copy-courier' });

/** A send: where to, and what stays in the engine (its signal, its progress). */
interface SendOptions {
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  onUploadProgress?: (loaded: number) => void;
}

/**
 * One courier worker and the requests it runs. `uses` counts the slices still to be sent of what it read: it ends
 * once it is retired (it has read its share), no slice of its blobs is still to be sent, and no request runs.
 */
class Courier {
  private readonly waiting = new Map<number, { resolve: (answer: CourierAnswer) => void; reject: (error: TransferFailure) => void; onProgress?: (loaded: number) => void }>();
  bytesRead = 0;
  uses = 0;
  running = 0;
  retired = false;
  /** Its worker reported an error (its script did not load, or it threw): what it runs fails, and it is asked nothing more. */
  broken = false;
  private ended = false;

  constructor(private readonly worker: CourierWorker) {
    this.worker.onmessage = (event: MessageEvent<CourierAnswer>) => {
      const answer = event.data;
      const waiter = this.waiting.get(answer.id);
      if (!waiter) return;
      if (answer.type === 'progress') return waiter.onProgress?.(answer.loaded);
      this.waiting.delete(answer.id);
      if (answer.type === 'failed') waiter.reject(new TransferFailure(answer.error));
      else waiter.resolve(answer);
    };
    this.worker.onerror = () => {
      this.broken = true;
      this.failAll(new TransferFailure({ code: 'network' }));
    };
  }

  /** Runs one request; rejects with a TransferFailure (`cancelled` once `signal` aborts). */
  async call(request: Exclude<CourierRequest, { type: 'abort' }>, signal: AbortSignal, onProgress?: (loaded: number) => void): Promise<CourierAnswer> {
    if (signal.aborted) throw cancelled();
    if (this.broken) throw new TransferFailure({ code: 'network' });
    // A message to an ended worker is dropped: it would never be answered.
    if (this.ended) throw cancelled();
    this.running++;
    const onAbort = () => this.worker.postMessage({ type: 'abort', id: request.id } satisfies CourierRequest);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await new Promise<CourierAnswer>((resolve, reject) => {
        this.waiting.set(request.id, { resolve, reject, ...(onProgress && { onProgress }) });
        this.worker.postMessage(request);
      });
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.running--;
    }
  }

  /** Ends the worker: Chromium frees at once every blob it read and everything its requests held. */
  terminate() {
    this.ended = true;
    this.worker.terminate();
    this.failAll(cancelled());
  }

  private failAll(error: TransferFailure) {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

/**
 * The workers that move a copy's bytes: reads into blobs, and PUTs of slices of them. A blob, a fetch's answer and
 * a request's body are held by objects that V8 is told nothing about, and the engine's long-lived worker, which
 * makes little garbage of its own, kept them until its heap was collected, which it hardly ever was: a copy of
 * 2 GiB filled Chromium's blob storage. A courier takes reads until it has read COURIER_READ_BYTES, then the next
 * one starts; a retired courier is ended once every slice of what it read has been sent (or the copy is over),
 * which frees all it held at once. One per copy task: `close` ends them all. Their requests skip the app's service
 * worker: they have one of their own without a fetch handler (public/courier-sw.js, registered over their
 * script's URL by src/lib/service-worker.ts).
 */
export class Couriers {
  constructor(private readonly startWorker: () => CourierWorker = startCourierWorker) {}

  private readonly all = new Set<Courier>();
  private current: Courier | undefined;
  /** The next courier, started when the current one has read half its share, so that reads never wait for one to load. */
  private spare: Courier | undefined;
  /** Per read (its blob id): the slices of it still to be sent. */
  private readonly unsent = new Map<number, number>();
  private closed = false;
  private nextId = 1;

  /**
   * Reads `read` into a courier; `uses` is how many slices of it will be sent. A courier ends once every slice of
   * what it read has been sent or given up (`release`), or at `close`. Rejects with a TransferFailure.
   */
  async read(read: SourceRead & { size: number }, uses: number, signal: AbortSignal): Promise<CourierBytes> {
    if (this.closed || signal.aborted) throw cancelled();
    const courier = this.reader();
    const id = this.nextId++;
    courier.bytesRead += read.size;
    courier.uses += uses;
    this.unsent.set(id, uses);
    try {
      await courier.call({ type: 'read', id, read }, signal);
    } catch (error) {
      this.release(new CourierBytes(courier, id, 0, 0));
      throw error;
    }
    return new CourierBytes(courier, id, 0, read.size);
  }

  /** Starts the first courier now, so that its script loads while the copy is being planned, not at its first read. */
  warm() {
    try {
      if (!this.closed) this.current ??= this.started();
    } catch {
      // Only a head start: the first read starts a courier, and fails there if none can start.
    }
  }

  /** PUTs `bytes` to `url` from the courier that holds them; resolves with the status and the ETag header. */
  async put(bytes: CourierBytes, options: SendOptions): Promise<{ status: number; etag: string | null }> {
    const request: CourierRequest = {
      type: 'send',
      id: this.nextId++,
      blob: bytes.blob,
      from: bytes.from,
      to: bytes.to,
      url: options.url,
      timeoutMs: options.timeoutMs,
      ...(options.headers && { headers: options.headers }),
    };
    try {
      const answer = await bytes.courier.call(request, options.signal, options.onUploadProgress);
      if (answer.type !== 'sent') throw new TransferFailure({ code: 'network' });
      return { status: answer.status, etag: answer.etag };
    } finally {
      this.giveBack(bytes, 1);
    }
  }

  /** The engine is done with the read `bytes` come from: its slices not sent yet never will be. */
  release(bytes: CourierBytes) {
    this.giveBack(bytes, this.unsent.get(bytes.blob) ?? 0);
  }

  /** Ends every courier (the copy is over): what they hold is freed, what they run is cancelled. */
  close() {
    this.closed = true;
    for (const courier of this.all) courier.terminate();
    this.all.clear();
    this.unsent.clear();
    this.current = this.spare = undefined;
  }

  /** Counts `slices` of the read `bytes` come from as sent or given up (never more than it still has). */
  private giveBack(bytes: CourierBytes, slices: number) {
    const unsent = this.unsent.get(bytes.blob) ?? 0;
    const given = Math.min(slices, unsent);
    if (unsent - given > 0) this.unsent.set(bytes.blob, unsent - given);
    else this.unsent.delete(bytes.blob);
    bytes.courier.uses -= given;
    this.settle(bytes.courier);
  }

  private reader(): Courier {
    if (this.spare?.broken) {
      this.end(this.spare);
      this.spare = undefined;
    }
    if (this.current && (this.current.bytesRead >= COURIER_READ_BYTES || this.current.broken)) {
      this.current.retired = true;
      this.settle(this.current);
      this.current = undefined;
    }
    this.current ??= this.spare ?? this.started();
    if (this.spare === this.current) this.spare = undefined;
    if (!this.spare && this.current.bytesRead >= COURIER_READ_BYTES / 2) this.spare = this.started();
    return this.current;
  }

  private started(): Courier {
    const courier = new Courier(this.startWorker());
    this.all.add(courier);
    return courier;
  }

  private settle(courier: Courier) {
    if (courier.retired && courier.uses === 0 && courier.running === 0) this.end(courier);
  }

  private end(courier: Courier) {
    courier.terminate();
    this.all.delete(courier);
  }
}
