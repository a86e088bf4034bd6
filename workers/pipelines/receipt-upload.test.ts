import { describe, expect, it } from 'vitest';
import type { ExpenseReceipt } from '../../contract/expenses';
import type { EngineEvent, ReceiptUpload, TransferError } from '../../contract/transfer';
import { Scheduler } from '../engine/scheduler';
import type { HttpRequest, HttpResponse, Transport } from '../transport/http';
import { sentShare } from './form-post';
import { receiptUpload, type ReceiptContext } from './receipt-upload';

const api = { baseUrl: 'http://test', language: 'zh-CN', authorization: 'ApiKey k1' };
const receipt: ExpenseReceipt = { id: 'r1', filename: 'taxi.png', content_type: 'image/png', size: 1000, created_at: '2026-11-20T10:00:00Z' };
const command = (): ReceiptUpload => ({ taskId: 't1', api, claimId: 'c/1', file: new File([new Uint8Array(1000)], 'taxi.png', { type: 'image/png' }) });

const answer = (status: number, body: unknown): HttpResponse => ({ status, header: () => null, text: JSON.stringify(body) });
const ok = answer(201, { code: 201, message: 'ok', data: receipt });

/**
 * A transport that answers each request with the next of `answers` (a response, or a failure without one), after
 * reporting the form's bytes as sent; it records the requests it was given.
 */
function fakeTransport(answers: (HttpResponse | TransferError)[]) {
  const requests: HttpRequest[] = [];
  const transport: Transport = {
    async send(request) {
      requests.push(request);
      request.onUploadProgress?.(600, 1200);
      const next = answers.shift();
      if (!next) throw new Error('no answer left');
      if ('code' in next) throw next;
      return next;
    },
    fetch: () => Promise.reject(new Error('not used')),
  };
  return { transport, requests };
}

function contextFor(transport: Transport, network = { online: true }) {
  const events: EngineEvent[] = [];
  const waits: number[] = [];
  const controller = new AbortController();
  const scheduler = new Scheduler({ perUpload: 1, global: 1 });
  let back: () => void = () => undefined;
  const context: ReceiptContext = {
    signal: controller.signal,
    emit: (event) => events.push(event),
    scheduler,
    transport,
    online: () => network.online,
    untilOnline: () => new Promise<void>((resolve) => (back = resolve)),
    sleep: async (ms) => void waits.push(ms),
  };
  return { context, events, waits, controller, scheduler, comeBack: () => back() };
}

const stages = (events: EngineEvent[]) => events.flatMap((event) => (event.type === 'engine.stage' ? [event.stage] : []));
const progress = (events: EngineEvent[]) => events.flatMap((event) => (event.type === 'engine.progress' ? [event.progress.loaded] : []));

describe('receiptUpload', () => {
  it('posts the file as a form to the claim’s receipts with the user’s credentials, and answers the stored receipt', async () => {
    const { transport, requests } = fakeTransport([ok]);
    const { context, events, scheduler } = contextFor(transport);
    await expect(receiptUpload(command(), context)).resolves.toEqual(receipt);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('http://test/api/expenses/c%2F1/receipts');
    expect(request?.headers).toEqual({ 'Accept-Language': 'zh-CN', Authorization: 'ApiKey k1' });
    const form = request?.body as FormData;
    const sent = form.get('file') as File;
    expect([sent.name, sent.size, sent.type]).toEqual(['taxi.png', 1000, 'image/png']);
    expect(stages(events)).toEqual(['starting', 'uploading', 'completed']);
    // Half the form sent is not half stored: the last bytes count once the server answered.
    expect(progress(events)).toEqual([0, 1000]);
    expect(scheduler.active).toBe(0);
  });

  it('counts bytes sent below the whole file until the answer', () => {
    expect(sentShare(1000, 600, 1200)).toBe(500);
    expect(sentShare(1000, 1200, 1200)).toBe(999);
    expect(sentShare(1000, 0, 0)).toBe(0);
  });

  it('tries a 503 and a network error again after a back-off, then succeeds', async () => {
    const { transport, requests } = fakeTransport([answer(503, { message: 'busy' }), { code: 'network' }, ok]);
    const { context, waits } = contextFor(transport);
    await expect(receiptUpload(command(), context)).resolves.toEqual(receipt);
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([0, 1000]);
  });

  it('offline, waits for the network and sends again once it is back', async () => {
    const network = { online: false };
    const { transport, requests } = fakeTransport([{ code: 'network' }, ok]);
    const { context, events, comeBack } = contextFor(transport, network);
    const upload = receiptUpload(command(), context);
    await expect.poll(() => stages(events).at(-1)).toBe('waitingForNetwork');
    expect(requests).toHaveLength(1);
    network.online = true;
    comeBack();
    await expect(upload).resolves.toEqual(receipt);
    expect(stages(events)).toEqual(['starting', 'uploading', 'waitingForNetwork', 'uploading', 'completed']);
  });

  it('fails at once on a refusal, with the server’s words; a 403 or 409 is about the claim, not a storage or a link', async () => {
    const cases: [HttpResponse, Partial<TransferError>][] = [
      [answer(400, { message: 'Receipts must be images or PDFs', data: { error: 'validation' } }), { code: 'unknown', status: 400, serverMessage: 'Receipts must be images or PDFs' }],
      [answer(403, { message: 'Not your claim', data: { error: 'forbidden' } }), { code: 'unknown', status: 403, serverMessage: 'Not your claim' }],
      [answer(409, { message: 'Submitted claims cannot change', data: { error: 'conflict', status: 'submitted' } }), { code: 'unknown', status: 409 }],
      [answer(413, { message: 'Too large', data: { error: 'too_large' } }), { code: 'too_large', status: 413 }],
      [answer(401, { message: 'Invalid key', data: { error: 'api_key_invalid' } }), { code: 'unauthorized', status: 401 }],
    ];
    for (const [response, expected] of cases) {
      const { transport, requests } = fakeTransport([response]);
      const { context, waits } = contextFor(transport);
      const failure = await receiptUpload(command(), context).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).toMatchObject(expected);
      expect(requests).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it('a cancel ends it as cancelled, never tried again, its scheduler slot given back', async () => {
    const { transport, requests } = fakeTransport([{ code: 'cancelled' }]);
    const { context, controller, scheduler } = contextFor(transport);
    controller.abort();
    await expect(receiptUpload(command(), context)).rejects.toMatchObject({ code: 'cancelled' });
    expect(requests).toHaveLength(0);
    expect(scheduler.active).toBe(0);

    const second = contextFor(fakeTransport([{ code: 'cancelled' }]).transport);
    await expect(receiptUpload(command(), second.context)).rejects.toMatchObject({ code: 'cancelled' });
    expect(second.scheduler.active).toBe(0);
  });
});
