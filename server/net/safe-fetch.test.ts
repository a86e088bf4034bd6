import { describe, expect, it } from 'vitest';
import { checkUrl, UrlRefusedError, type Resolver } from './safe-fetch';

const dns =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw new Error('ENOTFOUND');
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('checkUrl', () => {
  const resolve = dns({
    'dual.example': ['2001:db8::10', '203.0.113.10'],
    'v6.example': ['2001:db8::20'],
    'split.example': ['203.0.113.10', '192.168.1.10'],
  });

  it('connects to the checked address, IPv4 first, with the default port of the scheme', async () => {
    expect(await checkUrl(new URL('https://dual.example/x'), { allowPrivate: false, resolve })).toEqual({ address: '203.0.113.10', port: 443 });
    expect(await checkUrl(new URL('http://v6.example:8080/x'), { allowPrivate: false, resolve })).toEqual({ address: '2001:db8::20', port: 8080 });
    expect(await checkUrl(new URL('http://[2001:db8::1]/'), { allowPrivate: false, resolve })).toEqual({ address: '2001:db8::1', port: 80 });
  });

  it('refuses a host when any of its addresses is refused, and says which', async () => {
    await expect(checkUrl(new URL('http://split.example/'), { allowPrivate: false, resolve })).rejects.toMatchObject({
      reason: 'private',
      host: 'split.example',
      address: '192.168.1.10',
    });
    expect((await checkUrl(new URL('http://split.example/'), { allowPrivate: true, resolve })).address).toBe('203.0.113.10');
  });

  it('refuses other schemes, credentials and unknown hosts', async () => {
    for (const [url, reason] of [
      ['ftp://dual.example/', 'scheme'],
      ['file:///etc/passwd', 'scheme'],
      ['http://user:pw@dual.example/', 'credentials'],
      ['http://nowhere.example/', 'unresolvable'],
    ] as const) {
      const error = await checkUrl(new URL(url), { allowPrivate: true, resolve }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UrlRefusedError);
      expect(error).toMatchObject({ reason });
    }
  });
});
