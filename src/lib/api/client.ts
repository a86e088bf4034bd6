import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import { isSuccessCode, type RequestFailure, type RequestFailureReason } from '../../../contract/envelope';
import { backendBaseUrl } from '../backend-url';
import { offlineCache, ownerOf } from '../offline-cache';

export class ApiRequestError extends Error implements RequestFailure {
  constructor(
    readonly reason: RequestFailureReason,
    readonly status: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface Credentials {
  adminToken?: string;
  apiKey?: string;
}

/** The `Authorization` header of these credentials: the admin's bearer token first, else the API key. */
export function authorizationOf({ adminToken, apiKey }: Credentials): string | undefined {
  if (adminToken) return `Bearer ${adminToken}`;
  return apiKey ? `ApiKey ${apiKey}` : undefined;
}

/** The signed-in user's `Authorization`, for a request the client does not make itself (a share's peek). */
export const signedInAuthorization = (): string | undefined => authorizationOf(hooks.credentials());

interface ClientHooks {
  credentials: () => Credentials;
  language: () => string;
  onAdminTokenExpired: () => void;
  onApiKeyInvalid: () => void;
}

let hooks: ClientHooks = {
  credentials: () => ({}),
  language: () => 'en-US',
  onAdminTokenExpired: () => {},
  onApiKeyInvalid: () => {},
};

/** Wired once at start-up: where credentials come from and who hears that they stopped working. */
export function configureApiClient(next: ClientHooks) {
  hooks = next;
}

/** Which API family the signed-in user speaks: `/admin/...` with a bearer token, `/user/...` with a key. */
export function currentScope(): 'admin' | 'user' {
  return hooks.credentials().adminToken ? 'admin' : 'user';
}

export interface RequestOptions<S extends v.GenericSchema> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** The shape of `data`; the answer is checked against it. */
  schema: S;
  /**
   * A 401 here is about what the user typed (a login, a share password, the current password), not the
   * session: show the server's message (or this fallback) and keep the credentials.
   */
  ownUnauthorizedMessage?: string;
  /** File and upload routes: a key refused there for lack of access keeps the key. */
  fileRoute?: boolean;
  /** Send these instead of the signed-in user's: checking a credential before or after it is in use. */
  credentials?: Credentials;
  /** An `Authorization` of another kind than the credentials' (a file request's grant), sent instead of theirs. */
  authorization?: string;
  signal?: AbortSignal;
}

interface EnvelopeLike {
  code?: unknown;
  message?: unknown;
  data?: unknown;
}

const serverMessage = (body: EnvelopeLike | undefined) =>
  typeof body?.message === 'string' && body.message ? body.message : undefined;

const serverReason = (body: EnvelopeLike | undefined): RequestFailureReason | undefined => {
  const data = body?.data as { error?: RequestFailureReason } | undefined;
  return data?.error;
};

/** Bytes that are not an envelope (a receipt, a CSV): fetched with the credentials (the signed-in user's by default), any failure an error. */
export async function fetchBytes(path: string, credentials: Credentials = hooks.credentials(), signal?: AbortSignal): Promise<ArrayBuffer> {
  const authorization = authorizationOf(credentials);
  const response = await fetch(`${backendBaseUrl()}/api${path}`, { headers: authorization ? { Authorization: authorization } : {}, signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The headers of every call: the user's language, and the credentials' `Authorization`. */
function baseHeaders(credentials: Credentials): Record<string, string> {
  const authorization = authorizationOf(credentials);
  return { 'Accept-Language': hooks.language(), ...(authorization && { Authorization: authorization }) };
}

/** One call to `/api{path}`, following the app's error rules (401 and 409 handling) exactly. */
export async function apiRequest<S extends v.GenericSchema>(
  path: string,
  options: RequestOptions<S>,
): Promise<v.InferOutput<S>> {
  const { adminToken, apiKey } = options.credentials ?? hooks.credentials();
  const headers = baseHeaders({ adminToken, apiKey });
  if (options.authorization) headers.Authorization = options.authorization;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  // Offline API layer (src/lib/offline-cache.ts): business GETs are kept per credential.
  const cacheable = (options.method ?? 'GET') === 'GET';
  const owner = ownerOf({ adminToken, apiKey });
  let response: Response;
  let fromOfflineCache = false;
  try {
    response = await fetch(`${backendBaseUrl()}/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // No network: a GET answered before (less than 7 days ago) is answered again from the cache, as a 200.
    const cached = cacheable ? await offlineCache.answer(path, owner) : undefined;
    if (!cached) throw new ApiRequestError('network', 0, t`Network error, please check your connection`);
    response = cached;
    fromOfflineCache = true;
  }

  const body = (await response.json().catch(() => undefined)) as EnvelopeLike | undefined;
  if (!response.ok) throw failureFor(response, body, options, { adminToken, apiKey });

  const code = typeof body?.code === 'number' ? body.code : response.status;
  if (!isSuccessCode(code)) {
    throw new ApiRequestError(serverReason(body) ?? 'http', code, serverMessage(body) ?? t`Request failed`);
  }
  const parsed = v.safeParse(options.schema, body?.data);
  if (!parsed.success) {
    throw new ApiRequestError('internal', response.status, t`The server sent an unexpected answer`);
  }
  // A successful answer is kept for offline use (not awaited; skipped for uncacheable routes and non-JSON), unless
  // the session changed while it was on its way: a sign-out must not be followed by the signed-out user's answers.
  const sameSession = ownerOf(options.credentials ?? hooks.credentials()) === owner;
  if (cacheable && !fromOfflineCache && sameSession) void offlineCache.store(path, owner, response.headers.get('content-type'), body);
  return parsed.output;
}

/**
 * `HEAD /api{path}`, with the user's credentials and language: the answer's headers (a share's peek,
 * contract/share-peek.ts). A HEAD answer has no body, so a refusal is told by its status alone (404, 410, …), with
 * the generic message of that status.
 */
/**
 * Opens `/api{path}` as a stream of Server-Sent Events with the user's credentials (EventSource cannot send an
 * `Authorization` header). Answers the open response's body; a refusal fails like any call.
 */
export async function openStream(path: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const credentials = hooks.credentials();
  const response = await fetch(`${backendBaseUrl()}/api${path}`, { headers: { ...baseHeaders(credentials), Accept: 'text/event-stream' }, signal });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => undefined)) as EnvelopeLike | undefined;
    throw failureFor(response, body, { schema: v.unknown(), fileRoute: true }, credentials);
  }
  return response.body;
}

export async function apiHead(path: string): Promise<Headers> {
  const credentials = hooks.credentials();
  let response: Response;
  try {
    response = await fetch(`${backendBaseUrl()}/api${path}`, { method: 'HEAD', headers: baseHeaders(credentials) });
  } catch {
    throw new ApiRequestError('network', 0, t`Network error, please check your connection`);
  }
  if (!response.ok) throw failureFor(response, undefined, { schema: v.unknown() }, credentials);
  return response.headers;
}

function failureFor(
  response: Response,
  body: EnvelopeLike | undefined,
  options: RequestOptions<v.GenericSchema>,
  sent: Credentials,
): ApiRequestError {
  const { status } = response;
  const message = serverMessage(body);
  const reason = serverReason(body) ?? 'http';
  if (status === 401) {
    if (options.ownUnauthorizedMessage !== undefined) {
      return new ApiRequestError(reason, status, message ?? options.ownUnauthorizedMessage, body?.data);
    }
    if (sent.adminToken) {
      hooks.onAdminTokenExpired();
      return new ApiRequestError('token_expired', status, t`Admin session expired, please log in again`);
    }
    if (sent.apiKey) {
      if (options.fileRoute && reason !== 'api_key_invalid' && message) {
        return new ApiRequestError(reason, status, message, body?.data);
      }
      hooks.onApiKeyInvalid();
      return new ApiRequestError('api_key_invalid', status, t`API key invalid or expired`);
    }
    return new ApiRequestError('unauthorized', status, t`Unauthorised, please log in`);
  }
  if (status === 409) {
    return new ApiRequestError(reason, status, message ?? t`Link suffix is already taken, please try another`, body?.data);
  }
  const statusText = response.statusText;
  return new ApiRequestError(reason, status, message ?? t`HTTP error ${status}: ${statusText}`, body?.data);
}
