import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sharePeekHeaders } from '../../../contract/share-peek';
import { peekFile } from './peek';

const limited = sharePeekHeaders({
  requiresPassword: false,
  viewsLeft: 1,
  size: 31,
  contentType: 'text/plain',
  encryption: null,
  expiresAt: null,
});

/** A fake fetch answering every request with this status and these headers; the requests it saw. */
function answer(status: number, headers: Record<string, string> = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(null, { status, headers });
  });
  return calls;
}

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en-US', messages: {} });
  vi.stubGlobal('window', { location: { origin: 'http://app.test' } });
  vi.stubGlobal('localStorage', { getItem: () => null });
});
afterEach(() => vi.unstubAllGlobals());

describe('peeking at a file share', () => {
  it('asks with a HEAD of the download link, which spends no view, and reads the peek and the name', async () => {
    const calls = answer(200, { ...limited, 'Content-Disposition': `attachment; filename="_.txt"; filename*=UTF-8''%E7%AC%94%E8%AE%B0%20(1).txt` });
    expect(await peekFile('a b')).toEqual({ locked: false, filename: '笔记 (1).txt', size: 31, contentType: 'text/plain', viewsLeft: 1, expiresAt: null });
    expect(calls.map(({ url, init }) => `${init.method} ${url}`)).toEqual(['HEAD http://app.test/api/file-download/a%20b']);
  });

  it('tells a share behind a password by its 401: the password form is the step that spends a view', async () => {
    answer(401);
    expect(await peekFile('locked')).toEqual({ locked: true });
  });

  it('fails with the status, for the page to tell a missing or used-up share; and on an answer without a peek', async () => {
    for (const status of [404, 410, 500]) {
      answer(status);
      await expect(peekFile('x')).rejects.toMatchObject({ reason: 'http', status });
    }
    answer(200, { 'Content-Disposition': `attachment; filename*=UTF-8''a.txt` });
    await expect(peekFile('x')).rejects.toMatchObject({ reason: 'internal' });
    answer(200, limited);
    await expect(peekFile('x')).rejects.toMatchObject({ reason: 'internal' });
  });

  it('fails as a network failure when the request cannot be made', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(peekFile('x')).rejects.toMatchObject({ reason: 'network', status: 0 });
  });
});
