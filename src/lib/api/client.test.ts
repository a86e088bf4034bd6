import { i18n } from '@lingui/core';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, configureApiClient, type Credentials } from './client';

/** The §8 error rules, against a fake fetch: which message, which event, which credential is dropped. */
function setup(credentials: Credentials) {
  const events: string[] = [];
  configureApiClient({
    credentials: () => credentials,
    language: () => 'en-US',
    onAdminTokenExpired: () => events.push('adminTokenExpired'),
    onApiKeyInvalid: () => events.push('apiKeyInvalid'),
  });
  return events;
}

function answer(status: number, body: unknown, statusText = '') {
  const calls: RequestInit[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    calls.push(init);
    return new Response(body === undefined ? 'plain text' : JSON.stringify(body), {
      status,
      statusText,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

const envelope = (code: number, message: string, data: unknown = null) => ({ code, message, data, success: code < 300 });

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en-US', messages: {} });
  vi.stubGlobal('window', { location: { origin: 'http://app.test' } });
  vi.stubGlobal('localStorage', { getItem: () => null });
});
afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('sends the bearer token and returns the validated data', async () => {
    setup({ adminToken: 'T1' });
    const calls = answer(200, envelope(200, 'OK', { username: 'admin' }));
    await expect(apiRequest('/admin/check', { schema: v.object({ username: v.string() }) })).resolves.toEqual({
      username: 'admin',
    });
    expect((calls[0]?.headers as Record<string, string>).Authorization).toBe('Bearer T1');
  });

  it('sends an API key when there is no admin token', async () => {
    setup({ apiKey: 'K1' });
    const calls = answer(200, envelope(200, 'OK', null));
    await apiRequest('/x', { schema: v.null() });
    expect((calls[0]?.headers as Record<string, string>).Authorization).toBe('ApiKey K1');
  });

  it('401 with a bearer token: expired-session message and the event', async () => {
    const events = setup({ adminToken: 'T1' });
    answer(401, envelope(401, 'whatever the server says', { error: 'token_expired' }));
    await expect(apiRequest('/admin/api-keys', { schema: v.unknown() })).rejects.toMatchObject({
      status: 401,
      reason: 'token_expired',
      message: 'Admin session expired, please log in again',
    });
    expect(events).toEqual(['adminTokenExpired']);
  });

  it('401 with an API key: invalid-key message and the event', async () => {
    const events = setup({ apiKey: 'K1' });
    answer(401, envelope(401, 'nope', { error: 'api_key_invalid' }));
    await expect(apiRequest('/user/pastes', { schema: v.unknown() })).rejects.toMatchObject({
      message: 'API key invalid or expired',
    });
    expect(events).toEqual(['apiKeyInvalid']);
  });

  it('401 on a file route for lack of access keeps the key and shows the server message', async () => {
    const events = setup({ apiKey: 'K1' });
    answer(401, envelope(401, 'No access to this storage', { error: 'unauthorized' }));
    await expect(apiRequest('/upload', { schema: v.unknown(), fileRoute: true })).rejects.toMatchObject({
      message: 'No access to this storage',
    });
    expect(events).toEqual([]);
  });

  it('401 on an unlock shows the server message, or the fallback, and fires nothing', async () => {
    const events = setup({ adminToken: 'T1' });
    answer(401, envelope(401, 'wrong password'));
    await expect(
      apiRequest('/paste/abc', { method: 'POST', schema: v.unknown(), ownUnauthorizedMessage: 'fallback' }),
    ).rejects.toMatchObject({ message: 'wrong password' });
    answer(401, undefined);
    await expect(
      apiRequest('/paste/abc', { method: 'POST', schema: v.unknown(), ownUnauthorizedMessage: 'fallback' }),
    ).rejects.toMatchObject({ message: 'fallback' });
    expect(events).toEqual([]);
  });

  it('401 without credentials asks to log in', async () => {
    setup({});
    answer(401, envelope(401, 'x'));
    await expect(apiRequest('/admin/check', { schema: v.unknown() })).rejects.toMatchObject({
      message: 'Unauthorised, please log in',
    });
  });

  it('409: the server message, else the slug-taken text', async () => {
    setup({});
    answer(409, envelope(409, 'Name taken'));
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({ message: 'Name taken' });
    answer(409, undefined);
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({
      message: 'Link suffix is already taken, please try another',
    });
  });

  it('other failures: the server message, else HTTP error with status and text', async () => {
    setup({});
    answer(500, undefined, 'Internal Server Error');
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({
      message: 'HTTP error 500: Internal Server Error',
    });
    answer(413, envelope(413, 'File too large'));
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({ message: 'File too large', status: 413 });
  });

  it('a 200 whose body code is not a success throws with its message or "Request failed"', async () => {
    setup({});
    answer(200, { code: 400, message: 'bad thing', data: null });
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({ message: 'bad thing' });
    answer(200, { code: 500, data: null });
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({ message: 'Request failed' });
  });

  it('a network failure is reported as such', async () => {
    setup({});
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('/x', { schema: v.unknown() })).rejects.toMatchObject({ reason: 'network', status: 0 });
  });

  it('an answer of the wrong shape is refused', async () => {
    setup({});
    answer(200, envelope(200, 'OK', { username: 42 }));
    await expect(apiRequest('/x', { schema: v.object({ username: v.string() }) })).rejects.toMatchObject({
      reason: 'internal',
    });
  });
});
