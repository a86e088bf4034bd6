import { describe, expect, it } from 'vitest';
import { readSharePeek, SHARE_PEEK_EXPOSED, SHARE_PEEK_HEADERS, sharePeekHeaders, type SharePeek } from './share-peek';

describe('the peek headers', () => {
  it.each<SharePeek>([
    { requiresPassword: true, viewsLeft: 3, size: 120, contentType: 'application/octet-stream', encryption: 'aes-256-gcm', expiresAt: '2031-01-01T00:00:00.000Z' },
    { requiresPassword: false, viewsLeft: null, size: 0, contentType: 'text/markdown; charset=utf-8', encryption: null, expiresAt: null },
    { requiresPassword: false, viewsLeft: 0, size: 5, contentType: 'image/png', encryption: null, expiresAt: null },
  ])('read back what they were written from: %j', (peek) => {
    expect(readSharePeek(new Headers(sharePeekHeaders(peek)))).toEqual(peek);
  });

  it('leave out what a share does not have, and write the password as required or none', () => {
    const headers = sharePeekHeaders({ requiresPassword: false, viewsLeft: null, size: 1, contentType: 'text/plain', encryption: null, expiresAt: null });
    expect(headers).toEqual({
      [SHARE_PEEK_HEADERS.password]: 'none',
      [SHARE_PEEK_HEADERS.size]: '1',
      [SHARE_PEEK_HEADERS.contentType]: 'text/plain',
    });
  });

  it('read nothing from an answer without them', () => {
    expect(readSharePeek(new Headers({ 'content-type': 'application/json' }))).toBeUndefined();
    expect(readSharePeek(new Headers({ [SHARE_PEEK_HEADERS.password]: 'none' }))).toBeUndefined();
  });

  it('list every name for Access-Control-Expose-Headers', () => {
    for (const name of Object.values(SHARE_PEEK_HEADERS)) expect(SHARE_PEEK_EXPOSED).toContain(name);
  });
});
