import type { ApiAccess, TransferError, TransferErrorCode } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';
import { isSuccess, type Transport } from './http';

export interface Envelope {
  code?: number;
  message?: string;
  data?: unknown;
}

/** The headers of every call from the worker: the user's language and credentials. */
export const apiHeaders = (access: ApiAccess): Record<string, string> => ({
  'Accept-Language': access.language,
  ...(access.authorization && { Authorization: access.authorization }),
});

/** An answer's envelope; undefined when the body is not JSON (a proxy's error page, say). */
export function parseEnvelope(text: string): Envelope | undefined {
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return undefined;
  }
}

/** What an API refusal means for a transfer; `fallback` names the step that failed. */
export function apiFailure(status: number, body: Envelope | undefined, fallback: TransferErrorCode): TransferError {
  const data = (body?.data ?? {}) as Record<string, unknown>;
  const serverMessage = typeof body?.message === 'string' && body.message ? body.message : undefined;
  const code: TransferErrorCode =
    status === 401
      ? 'unauthorized'
      : status === 403
        ? 'storage_forbidden'
        : status === 409
          ? 'slug_taken'
          : status === 413
            ? 'remaining' in data
              ? 'quota_exceeded'
              : 'too_large'
            : fallback;
  // A name taken in a mount is told apart from other conflicts, as batch answers tell it (`fs_exists`).
  const reason = data.issue === 'exists' ? 'fs_exists' : typeof data.error === 'string' ? data.error : undefined;
  return { code, status, ...(serverMessage && { serverMessage }), ...(reason && { reason }), data };
}

/** One JSON call to the app's API from the worker, with the user's credentials and language. */
export async function callApi<T>(
  transport: Transport,
  access: ApiAccess,
  path: string,
  options: { method: 'GET' | 'POST' | 'DELETE'; body?: unknown; signal?: AbortSignal; failure: TransferErrorCode },
): Promise<T> {
  const headers = apiHeaders(access);
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await transport.send({
    method: options.method,
    url: `${access.baseUrl}/api${path}`,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: options.signal,
    timeoutMs: 60_000,
  });
  const body = parseEnvelope(response.text);
  if (!isSuccess(response.status)) throw new TransferFailure(apiFailure(response.status, body, options.failure));
  return body?.data as T;
}

/** Admins manage files under /admin, keys under /user. */
export const filesScope = (access: ApiAccess) => (access.authorization?.startsWith('Bearer ') ? 'admin' : 'user');
