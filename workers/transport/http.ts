import type { TransferError } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: XMLHttpRequestBodyInit | null;
  /** Fails with `timeout` when the request is not done by then. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onUploadProgress?: (loaded: number, total: number) => void;
}

export interface HttpResponse {
  status: number;
  header(name: string): string | null;
  text: string;
}

/**
 * The only place in the worker that does HTTP. XMLHttpRequest, because fetch reports no upload progress.
 * Resolves with any HTTP status; rejects only when no answer came: `network`, `timeout` or `cancelled`.
 */
export function send(request: HttpRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const fail = (code: TransferError['code']) => reject(new TransferFailure({ code }));
    if (request.signal?.aborted) return fail('cancelled');
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    if (request.timeoutMs) xhr.timeout = request.timeoutMs;
    if (request.onUploadProgress) {
      const report = request.onUploadProgress;
      xhr.upload.onprogress = (event) => report(event.loaded, event.total);
    }
    const onAbort = () => xhr.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => request.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, header: (name) => xhr.getResponseHeader(name), text: xhr.responseText });
    };
    xhr.onerror = () => {
      done();
      fail('network');
    };
    xhr.ontimeout = () => {
      done();
      fail('timeout');
    };
    xhr.onabort = () => {
      done();
      fail('cancelled');
    };
    xhr.send(request.body ?? null);
  });
}

/**
 * How the worker reaches the network: `send` for API calls and uploads (with upload progress), `fetch` for
 * downloads read as streams. The engine is given one; tests give fakes.
 */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

export const browserTransport: Transport = { send, fetch: (url, init) => fetch(url, init) };

/** ETags arrive quoted (`"abc"`); the server wants the bare value. */
export const stripQuotes = (etag: string | null): string | undefined => etag?.replace(/^W\//, '').replace(/"/g, '') || undefined;

export const isSuccess = (status: number) => status >= 200 && status < 300;
