import { describe, expect, it } from 'vitest';
import { COURIER_READ_BYTES, Couriers, type CourierAnswer, type CourierRequest, type CourierWorker } from './couriers';

/** A courier worker in this thread: reads answer at once; sends wait until `finish` (or an abort). */
class FakeCourier implements CourierWorker {
  onmessage: ((event: MessageEvent<CourierAnswer>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  readonly requests: CourierRequest[] = [];
  private readonly sends = new Set<number>();

  postMessage(request: CourierRequest) {
    this.requests.push(request);
    if (request.type === 'read') this.answer({ type: 'read', id: request.id });
    if (request.type === 'send') this.sends.add(request.id);
    if (request.type === 'abort' && this.sends.delete(request.id)) this.answer({ type: 'failed', id: request.id, error: { code: 'cancelled' } });
  }

  terminate() {
    this.terminated = true;
  }

  /** Fails as a worker whose script did not load. */
  fail() {
    this.onerror?.({} as ErrorEvent);
  }

  /** Answers every send still running with 200 and an ETag. */
  finish() {
    for (const id of this.sends) this.answer({ type: 'sent', id, status: 200, etag: '"etag"' });
    this.sends.clear();
  }

  private answer(answer: CourierAnswer) {
    setTimeout(() => this.onmessage?.({ data: answer } as MessageEvent<CourierAnswer>), 0);
  }
}

function couriers() {
  const started: FakeCourier[] = [];
  const pool = new Couriers(() => {
    const courier = new FakeCourier();
    started.push(courier);
    return courier;
  });
  return { pool, started };
}

const half = COURIER_READ_BYTES / 2;
const signal = new AbortController().signal;
const options = { url: 'https://storage.test/put', timeoutMs: 1000, signal };

describe('Couriers', () => {
  it('warms its first courier before any read, reads with it, and ends it at close', async () => {
    const { pool, started } = couriers();
    pool.warm();
    pool.warm();
    expect(started).toHaveLength(1);
    await pool.read({ url: 'a', size: 10 }, 1, signal);
    expect(started).toHaveLength(1);
    expect(started[0]!.requests.map((request) => request.type)).toEqual(['read']);
    pool.close();
    expect(started[0]!.terminated).toBe(true);
    pool.warm();
    expect(started).toHaveLength(1);
  });

  it('takes a worker that cannot start at warm-up quietly, and fails the first read instead', async () => {
    const pool = new Couriers(() => {
      throw new Error('no workers here');
    });
    expect(() => pool.warm()).not.toThrow();
    await expect(pool.read({ url: 'a', size: 10 }, 1, signal)).rejects.toThrow('no workers here');
  });

  it('takes reads in one courier until it has read its share, and ends it once every slice of them was sent', async () => {
    const { pool, started } = couriers();
    const a = await pool.read({ url: 'a', size: half }, 1, signal);
    const b = await pool.read({ url: 'b', size: half }, 2, signal);
    // Half the share read: the next courier is started before it is needed.
    expect(started).toHaveLength(2);
    const c = await pool.read({ url: 'c', size: 10 }, 1, signal);
    expect(b.courier).toBe(a.courier);
    expect(c.courier).not.toBe(a.courier);
    expect(started[1]!.requests.map((request) => request.type)).toEqual(['read']);

    const sends = [pool.put(a, options), pool.put(b.slice(0, 5), options)];
    started[0]!.finish();
    await Promise.all(sends);
    // One slice of b is still to be sent: the first courier holds on.
    expect(started[0]!.terminated).toBe(false);
    const last = pool.put(b.slice(5, 10), options);
    started[0]!.finish();
    expect(await last).toEqual({ status: 200, etag: '"etag"' });
    expect(started[0]!.terminated).toBe(true);
    expect(started[1]!.terminated).toBe(false);
    pool.close();
    expect(started[1]!.terminated).toBe(true);
  });

  it('ends a retired courier once the slices it still holds are given up', async () => {
    const { pool, started } = couriers();
    const a = await pool.read({ url: 'a', size: half }, 1, signal);
    const b = await pool.read({ url: 'b', size: half }, 3, signal);
    await pool.read({ url: 'c', size: 10 }, 1, signal);
    const sent = pool.put(a, options);
    started[0]!.finish();
    await sent;
    expect(started[0]!.terminated).toBe(false);
    pool.release(b.slice(0, 1));
    expect(started[0]!.terminated).toBe(true);
    pool.close();
  });

  it('starts no courier for a read after close or with an aborted signal', async () => {
    const { pool, started } = couriers();
    const aborted = new AbortController();
    aborted.abort();
    await expect(pool.read({ url: 'a', size: 10 }, 1, aborted.signal)).rejects.toMatchObject({ code: 'cancelled' });
    pool.close();
    await expect(pool.read({ url: 'a', size: 10 }, 1, signal)).rejects.toMatchObject({ code: 'cancelled' });
    expect(started).toEqual([]);
  });

  it('sends a slice as the courier’s blob id and offsets', async () => {
    const { pool, started } = couriers();
    const read = await pool.read({ url: 'a', range: [100, 200], size: 100 }, 1, signal);
    const sent = pool.put(read.slice(10, 30), { ...options, headers: { 'Content-Type': 'text/plain' } });
    started[0]!.finish();
    await sent;
    expect(started[0]!.requests).toEqual([
      { type: 'read', id: read.blob, read: { url: 'a', range: [100, 200], size: 100 } },
      { type: 'send', id: expect.any(Number), blob: read.blob, from: 10, to: 30, url: options.url, timeoutMs: 1000, headers: { 'Content-Type': 'text/plain' } },
    ]);
    pool.close();
  });

  it('asks the courier to abort a send whose signal aborts, and rejects it as cancelled', async () => {
    const { pool, started } = couriers();
    const read = await pool.read({ url: 'a', size: 10 }, 1, signal);
    const cancel = new AbortController();
    const sent = pool.put(read, { ...options, signal: cancel.signal });
    cancel.abort();
    await expect(sent).rejects.toMatchObject({ code: 'cancelled' });
    expect(started[0]!.requests.at(-1)).toEqual({ type: 'abort', id: expect.any(Number) });
    pool.close();
  });

  it('fails what a broken courier was asked, ends it, and reads with a new one', async () => {
    const { pool, started } = couriers();
    const read = await pool.read({ url: 'a', size: 10 }, 2, signal);
    const running = pool.put(read.slice(0, 5), options);
    started[0]!.fail();
    await expect(running).rejects.toMatchObject({ code: 'network' });
    await expect(pool.put(read.slice(5, 10), options)).rejects.toMatchObject({ code: 'network' });
    const next = await pool.read({ url: 'b', size: 10 }, 1, signal);
    expect(next.courier).not.toBe(read.courier);
    expect(started[0]!.terminated).toBe(true);
    pool.close();
  });

  it('ends every courier on close, cancelling what runs', async () => {
    const { pool, started } = couriers();
    const read = await pool.read({ url: 'a', size: 10 }, 1, signal);
    const sent = pool.put(read, options);
    pool.close();
    await expect(sent).rejects.toMatchObject({ code: 'cancelled' });
    expect(started.every((courier) => courier.terminated)).toBe(true);
  });
});
