import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_PART_BYTES } from '../../contract/parts';
import type { JournalTask } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';
import { answer, fakeContext, fakeTransport, pending, type SeenRequest } from '../testing/fakes';
import type { HttpResponse } from '../transport/http';
import type { MultipartProtocol, UploadRef } from './multipart-protocol';
import { multipartUpload, type MultipartJob } from './multipart-upload';

/** Three parts: two of 5 MiB and a last one of 1 MiB. */
const SIZE = 2 * MIN_PART_BYTES + 1024 * 1024;
const source = new Blob([new Uint8Array(SIZE)]);
const partOf = (request: SeenRequest) => Number(/part\/(\d+)/.exec(request.url)?.[1]);
const etagged = () => answer(200, '', { ETag: '"e"' });

/** The server side of the upload, recording what it was asked. */
function fakeProtocol(stored?: UploadRef) {
  const calls = { init: 0, signed: [] as number[][], completed: [] as { partNumber: number; etag: string }[][], aborted: [] as UploadRef[] };
  const protocol: MultipartProtocol<string> = {
    init: async () => {
      calls.init++;
      return stored ?? { fileId: 'f1', uploadId: 'u1' };
    },
    storedParts: async () => undefined,
    sign: async (_ref, partNumbers) => {
      calls.signed.push(partNumbers);
      return { urls: partNumbers.map((partNumber) => ({ partNumber, url: `https://storage.test/part/${partNumber}` })), until: Date.now() + 3_600_000 };
    },
    complete: async (_ref, parts) => {
      calls.completed.push(parts);
      return 'share';
    },
    abort: async (ref) => void calls.aborted.push(ref),
  };
  return { protocol, calls };
}

const jobOf = (protocol: MultipartProtocol<string>, resume?: JournalTask): MultipartJob<string> => ({
  taskId: 't1',
  source,
  describe: { kind: 'multipart', label: 'big.bin', mimetype: 'application/octet-stream', options: { expires_in: 0, max_views: 0 } },
  protocol,
  ...(resume && { resume }),
});

/** PUTs answered by `answers` per part, in order (then 200 with an ETag); the number of tries per part. */
function storage(answers: Record<number, (() => HttpResponse | Promise<HttpResponse>)[]> = {}) {
  const tries = new Map<number, number>();
  const fake = fakeTransport((request) => {
    const part = partOf(request);
    const attempt = tries.get(part) ?? 0;
    tries.set(part, attempt + 1);
    return answers[part]?.[attempt]?.() ?? etagged();
  });
  return { ...fake, tries };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('multipartUpload', () => {
  it('tries a part again after a passing failure, backing off as the classifier says, and completes with every part', async () => {
    const { protocol, calls } = fakeProtocol();
    const { transport, tries } = storage({ 2: [() => answer(503), () => answer(503)] });
    const { context, journal } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);

    // The first retry goes at once; the second waits a second.
    await vi.advanceTimersByTimeAsync(0);
    expect(tries.get(2)).toBe(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(tries.get(2)).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toBe('share');
    expect(tries.get(2)).toBe(3);
    expect(calls.completed).toEqual([[1, 2, 3].map((partNumber) => ({ partNumber, etag: 'e' }))]);
    expect(journal.events.filter((event) => event.type === 'partDone')).toHaveLength(3);
    expect(journal.events.at(-1)).toMatchObject({ type: 'completed', result: 'share' });
  });

  it('fails at once on a refusal that is not passing (a 4xx), journaling the plain error', async () => {
    const { protocol, calls } = fakeProtocol();
    const { transport, tries } = storage({ 1: [() => answer(400, '<Error>InvalidPart</Error>')] });
    const { context, journal } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    const failure = expect(done).rejects.toBeInstanceOf(TransferFailure);
    await vi.runAllTimersAsync();
    await failure;
    await expect(done).rejects.toMatchObject({ code: 'part_failed', part: 1, status: 400 });
    expect(tries.get(1)).toBe(1);
    expect(calls.completed).toEqual([]);
    expect(calls.aborted).toEqual([]);
    const failed = journal.events.find((event) => event.type === 'failed');
    expect(failed?.type === 'failed' && failed.error).toEqual({ code: 'part_failed', part: 1, status: 400 });
    expect(failed?.type === 'failed' && failed.error).not.toBeInstanceOf(Error);
  });

  it('sends again the parts a relaying storage lost when completing finds them missing, then completes', async () => {
    const { protocol, calls } = fakeProtocol();
    // The relay failed after parts 1 and 2 passed: the storage holds only part 3.
    protocol.storedParts = async () => [{ partNumber: 3, size: 1024 * 1024, etag: 'e' }];
    protocol.complete = async (_ref, parts) => {
      calls.completed.push(parts);
      if (calls.completed.length === 1) {
        throw new TransferFailure({ code: 'commit_failed', status: 400, data: { field: 'parts', issue: 'missing', partNumber: 1 } });
      }
      return 'share';
    };
    const { transport, requests } = storage();
    const { context, journal } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    await vi.runAllTimersAsync();
    expect(await done).toBe('share');
    expect(requests.map(partOf).sort()).toEqual([1, 1, 2, 2, 3]);
    expect(calls.completed).toHaveLength(2);
    expect(journal.events.some((event) => event.type === 'failed')).toBe(false);
    expect(journal.events.at(-1)).toMatchObject({ type: 'completed', result: 'share' });
  });

  it('sends again the parts completing names as missing where the storage has no listing', async () => {
    const { protocol, calls } = fakeProtocol();
    protocol.complete = async (_ref, parts) => {
      calls.completed.push(parts);
      if (calls.completed.length === 1) throw new TransferFailure({ code: 'commit_failed', status: 400, data: { field: 'parts', issue: 'missing', partNumber: 2, partNumbers: [2, 3] } });
      return 'share';
    };
    const { transport, requests } = storage();
    const { context } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    await vi.runAllTimersAsync();
    expect(await done).toBe('share');
    expect(requests.map(partOf).sort()).toEqual([1, 2, 2, 3, 3]);
    expect(calls.signed.at(-1)).toEqual([2, 3]);
  });

  it('gives up when the parts sent again go missing again', async () => {
    const { protocol, calls } = fakeProtocol();
    protocol.complete = async (_ref, parts) => {
      calls.completed.push(parts);
      throw new TransferFailure({ code: 'commit_failed', status: 400, data: { field: 'parts', issue: 'missing', partNumber: 1, partNumbers: [1] } });
    };
    const { transport, requests } = storage();
    const { context, journal } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    const failure = expect(done).rejects.toMatchObject({ code: 'commit_failed' });
    await vi.runAllTimersAsync();
    await failure;
    expect(requests.map(partOf).sort()).toEqual([1, 1, 1, 2, 3]);
    expect(calls.completed).toHaveLength(3);
    expect(journal.events.at(-1)).toMatchObject({ type: 'failed' });
  });

  it('tries completing again after a passing failure (the storage briefly out of reach), sending no part again', async () => {
    const { protocol, calls } = fakeProtocol();
    protocol.complete = async (_ref, parts) => {
      calls.completed.push(parts);
      if (calls.completed.length < 3) throw new TransferFailure({ code: 'commit_failed', status: 502 });
      return 'share';
    };
    const { transport, requests } = storage();
    const { context, journal } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    // The first retry goes at once; the second waits a second.
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.completed).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await done).toBe('share');
    expect(calls.completed).toHaveLength(3);
    expect(requests).toHaveLength(3);
    expect(journal.events.some((event) => event.type === 'failed')).toBe(false);
  });

  it('fails when completing refuses for another reason, sending nothing again', async () => {
    const { protocol, calls } = fakeProtocol();
    protocol.storedParts = async () => [];
    protocol.complete = async (_ref, parts) => {
      calls.completed.push(parts);
      throw new TransferFailure({ code: 'commit_failed', status: 400, data: { field: 'parts', issue: 'etag_mismatch', partNumber: 1 } });
    };
    const { transport, requests } = storage();
    const { context } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    const failure = expect(done).rejects.toMatchObject({ code: 'commit_failed' });
    await vi.runAllTimersAsync();
    await failure;
    expect(requests).toHaveLength(3);
    expect(calls.completed).toHaveLength(1);
  });

  it('resumes from the journal: the same upload, only the parts it has not seen land', async () => {
    const { protocol, calls } = fakeProtocol();
    const { transport, requests } = storage();
    const { context } = fakeContext(transport);
    const resume: JournalTask = {
      taskId: 't1',
      kind: 'multipart',
      label: 'big.bin',
      mimetype: 'application/octet-stream',
      options: { expires_in: 0, max_views: 0 },
      partSize: MIN_PART_BYTES,
      partCount: 3,
      size: SIZE,
      fileId: 'f0',
      uploadId: 'u0',
      parts: { 1: { partNumber: 1, size: MIN_PART_BYTES, etag: 'old1' }, 3: { partNumber: 3, size: 1024 * 1024, etag: 'old3' } },
      status: 'failed',
      queuedAt: 1,
    };
    const done = multipartUpload(jobOf(protocol, resume), context);
    await vi.runAllTimersAsync();
    expect(await done).toBe('share');

    expect(calls.init).toBe(0);
    expect(requests.map(partOf)).toEqual([2]);
    expect(calls.signed.flat()).toEqual([2]);
    expect(calls.completed).toEqual([[{ partNumber: 1, etag: 'old1' }, { partNumber: 2, etag: 'e' }, { partNumber: 3, etag: 'old3' }]]);
  });

  it('a user cancel aborts the upload on the storage, journals it, and sends nothing after', async () => {
    const { protocol, calls } = fakeProtocol();
    const { transport, requests } = storage({ 1: [pending], 2: [pending], 3: [pending] });
    const { context, controller, journal } = fakeContext(transport);
    const done = multipartUpload(jobOf(protocol), context);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(3);

    controller.abort();
    await expect(done).rejects.toMatchObject({ code: 'cancelled' });
    expect(requests.every((request) => request.signal?.aborted)).toBe(true);
    expect(calls.aborted).toEqual([{ fileId: 'f1', uploadId: 'u1' }]);
    expect(journal.events.at(-1)).toMatchObject({ type: 'cancelled' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toHaveLength(3);
    expect(calls.completed).toEqual([]);
  });
});
