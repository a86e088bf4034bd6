import type { EngineEvent, JournalEvent } from '../../contract/transfer';
import { Scheduler } from '../engine/scheduler';
import { sleep } from '../engine/waits';
import type { Journal } from '../journal/store';
import { replay } from '../journal/replay';
import type { MultipartContext } from '../pipelines/multipart-upload';
import type { HttpRequest, HttpResponse, Transport } from '../transport/http';
import { TransferFailure } from '../engine/failure';

/** Fakes for the worker's seams, for unit tests: an in-memory journal, a scripted transport, a pipeline context. */

/** A journal in memory: the events as written, rebuilt into tasks as the real one does. */
export function memoryJournal(events: JournalEvent[] = []): Journal & { events: JournalEvent[] } {
  return {
    events,
    append: async (event) => void events.push(event),
    tasks: async () => replay(events),
    task: async (taskId) => replay(events.filter((event) => event.taskId === taskId)).get(taskId),
    forget: async (taskId) => void events.splice(0, events.length, ...events.filter((event) => event.taskId !== taskId)),
  };
}

/** An HTTP answer as the transport gives one. */
export const answer = (status: number, text = '', headers: Record<string, string> = {}): HttpResponse => ({
  status,
  text,
  header: (name) => Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? null,
});

/** The API's envelope around `data`. */
export const apiAnswer = (data: unknown, status = 200) => answer(status, JSON.stringify({ code: 0, message: status < 300 ? 'ok' : 'refused', data }));

/** A request the fake transport saw: what was sent, with the path after `/api` for API calls. */
export interface SeenRequest extends HttpRequest {
  path: string;
}

/**
 * A transport that answers each `send` with `route` (which may wait, or reject) and each `fetch` with `download`,
 * and keeps every request. A request whose signal aborts while it waits rejects as cancelled, as XHR does.
 */
export function fakeTransport(
  route: (request: SeenRequest) => HttpResponse | Promise<HttpResponse>,
  download: (url: string, init: RequestInit) => Response | Promise<Response> = () => Promise.reject(new TypeError('no downloads here')),
) {
  const requests: SeenRequest[] = [];
  const downloads: string[] = [];
  const transport: Transport = {
    send(request) {
      const seen = { ...request, path: request.url.replace(/^.*?\/api\//, '/') };
      requests.push(seen);
      if (request.signal?.aborted) return Promise.reject(new TransferFailure({ code: 'cancelled' }));
      return new Promise<HttpResponse>((resolve, reject) => {
        const onAbort = () => reject(new TransferFailure({ code: 'cancelled' }));
        request.signal?.addEventListener('abort', onAbort, { once: true });
        Promise.resolve()
          .then(() => route(seen))
          .then(resolve, reject)
          .finally(() => request.signal?.removeEventListener('abort', onAbort));
      });
    },
    async fetch(url, init) {
      downloads.push(url);
      return download(url, init);
    },
  };
  return { transport, requests, downloads };
}

/** A promise that never settles: a request still on its way. */
export const pending = <T>() => new Promise<T>(() => undefined);

/** A pipeline's context over fakes; `overrides` replace any part of it. */
export function fakeContext(transport: Transport, overrides: Partial<MultipartContext> = {}) {
  const events: EngineEvent[] = [];
  const controller = new AbortController();
  const journal = memoryJournal();
  const context: MultipartContext = {
    signal: controller.signal,
    emit: (event) => events.push(event),
    transport,
    journal,
    scheduler: new Scheduler(),
    online: () => true,
    untilOnline: async () => undefined,
    sleep,
    ...overrides,
  };
  return { context, events, controller, journal };
}

/** The stages a pipeline went through, in order. */
export const stagesOf = (events: EngineEvent[]) => events.flatMap((event) => (event.type === 'engine.stage' ? [event.stage] : []));
