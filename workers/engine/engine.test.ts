import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_PART_BYTES } from '../../contract/parts';
import type { EngineEvent, FileShareUpload } from '../../contract/transfer';
import { apiAnswer, answer, fakeTransport, memoryJournal, pending, stagesOf, type SeenRequest } from '../testing/fakes';
import type { HttpResponse } from '../transport/http';
import type { EngineDeps } from './deps';
import { TransferEngine } from './engine';
import { TransferFailure } from './failure';
import { Scheduler } from './scheduler';
import { ONLINE_CHECK_MS, sleep, untilOnline } from './waits';

const api = { baseUrl: 'https://app.test', language: 'en-US' };
/** Three parts: two of 5 MiB and a last one of 1 MiB. */
const file = new File([new Uint8Array(2 * MIN_PART_BYTES + 1024 * 1024)], 'big.bin', { lastModified: 7 });
const command: FileShareUpload = { taskId: 't1', api, file, mimetype: 'application/octet-stream', options: { expires_in: 0, max_views: 0 } };
const isPut = (request: SeenRequest) => request.method === 'PUT';

/** The file-share multipart API, and storage that answers each PUT with `put`. */
function server(put: (request: SeenRequest) => HttpResponse | Promise<HttpResponse>) {
  return fakeTransport((request) => {
    if (isPut(request)) return put(request);
    const body = JSON.parse(String(request.body ?? '{}')) as { partNumbers?: number[] };
    switch (request.path) {
      case '/s3/multipart/init':
        return apiAnswer({ file_id: 'f1', upload_id: 'u1' });
      case '/s3/multipart/sign':
        return apiAnswer({ urls: (body.partNumbers ?? []).map((partNumber) => ({ partNumber, url: `https://storage.test/part/${partNumber}` })), expires_in: 3600 });
      case '/s3/multipart/complete':
        return apiAnswer({ slug: 'done' });
      case '/s3/multipart/abort':
        return apiAnswer({});
      default:
        return apiAnswer(null, 404);
    }
  });
}

/** An engine over fakes, with the browser's online flag in `network.online` (its `online` event is never sent). */
function engineOver(transport: EngineDeps['transport']) {
  const journal = memoryJournal();
  const network = { online: true };
  const source = { isOnline: () => network.online, events: new EventTarget() };
  const deps: EngineDeps = {
    journal,
    scheduler: new Scheduler({ perUpload: 3, global: 6 }),
    transport,
    network: { online: source.isOnline, untilOnline: (signal) => untilOnline(signal, source) },
    clock: { now: Date.now, sleep },
  };
  const events: EngineEvent[] = [];
  return { engine: new TransferEngine(deps), journal, network, events, onEvent: (event: EngineEvent) => void events.push(event) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TransferEngine', () => {
  it('a cancel aborts the parts in flight, gives the upload up on the storage, and answers a plain `cancelled`', async () => {
    const { transport, requests } = server(pending);
    const { engine, journal, onEvent } = engineOver(transport);
    const upload = engine.uploadFile(command, onEvent);
    await vi.advanceTimersByTimeAsync(0);
    const puts = requests.filter(isPut);
    expect(puts).toHaveLength(3);

    engine.cancel('t1');
    const failure = await upload.catch((error: unknown) => error);
    // What crosses Comlink is the plain object: an Error would arrive without its code.
    expect(failure).toEqual({ code: 'cancelled' });
    expect(failure).not.toBeInstanceOf(Error);
    expect(puts.every((request) => request.signal?.aborted)).toBe(true);
    expect(requests.filter((request) => request.path === '/s3/multipart/abort')).toHaveLength(1);
    expect(journal.events.at(-1)).toMatchObject({ type: 'cancelled', taskId: 't1' });

    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests.filter(isPut)).toHaveLength(3);
  });

  it('offline, a task waits for the network and sends nothing until it is back, then goes on', async () => {
    let offlineFailures = 0;
    const { transport, requests } = server(() => {
      if (!network.online) {
        // A task that did not wait would try again at once, for ever: past a few tries, the storage stops answering.
        if (offlineFailures > 10) return pending<HttpResponse>();
        offlineFailures++;
        return Promise.reject(new TransferFailure({ code: 'network' }));
      }
      return answer(200, '', { ETag: '"e"' });
    });
    const { engine, network, events, onEvent } = engineOver(transport);
    network.online = false;
    const upload = engine.uploadFile(command, onEvent);
    await vi.advanceTimersByTimeAsync(0);
    expect(offlineFailures).toBe(3);
    expect(stagesOf(events).at(-1)).toBe('waitingForNetwork');

    await vi.advanceTimersByTimeAsync(30 * ONLINE_CHECK_MS);
    expect(requests.filter(isPut)).toHaveLength(3);

    network.online = true;
    await vi.advanceTimersByTimeAsync(ONLINE_CHECK_MS);
    expect(await upload).toEqual({ slug: 'done' });
    expect(requests.filter(isPut)).toHaveLength(6);
    expect(stagesOf(events)).toEqual(['starting', 'initializing', 'uploading', 'waitingForNetwork', 'uploading', 'processing', 'completing', 'completed']);
  });

  it('refuses to resume with another file than the journal’s, as a plain `file_mismatch`', async () => {
    const { transport, requests } = server(() => answer(200, '', { ETag: '"e"' }));
    const { engine, journal, onEvent } = engineOver(transport);
    await journal.append({
      type: 'queued',
      taskId: 't2',
      at: 1,
      kind: 'multipart',
      label: 'big.bin',
      file: { name: 'big.bin', size: file.size, lastModified: 7, type: '' },
      mimetype: 'application/octet-stream',
      options: { expires_in: 0, max_views: 0 },
      partSize: MIN_PART_BYTES,
      partCount: 3,
      size: file.size,
    });
    const other = new File([new Uint8Array(10)], 'big.bin', { lastModified: 7 });
    const failure = await engine.resumeFile('t2', other, api, onEvent).catch((error: unknown) => error);
    expect(failure).toEqual({ code: 'file_mismatch' });
    expect(failure).not.toBeInstanceOf(Error);
    expect(requests).toEqual([]);
  });
});
