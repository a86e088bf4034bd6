/**
 * URL uploads: `url/info` against a local source server (size, type, name, CORS, HEAD fallback, redirects),
 * the SSRF guard (private and loopback refused without ALLOW_PRIVATE_URLS, the metadata address always, redirects
 * re-checked, non-http schemes, DNS names pointing inside), `url/proxy` streaming byte-identical and stopping at
 * the max upload size, and `url/presign` → PUT → `url/commit`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileShareSchema, presignResponseSchema } from '../../../contract/files';
import { urlInfoResponseSchema } from '../../../contract/url-upload';
import { bytesOf, fileClient, patternBytes, sha256 } from '../../../tests/fixtures/files';
import { expectError, expectOk, type TestApp, useTestApp } from '../../../tests/fixtures/test-app';

vi.setConfig({ testTimeout: 20_000, hookTimeout: 20_000 });

const MiB = 1024 * 1024;
const FILE = patternBytes(300_000, 21);
const BIG = patternBytes(3 * MiB, 22);

interface Source {
  server: Server;
  origin: string;
  port: number;
  /** Requests seen, as `METHOD path` with their Origin and Range headers. */
  seen: { method: string; path: string; origin?: string; range?: string }[];
  /** Lets the /drip route send its second half. */
  releaseDrip: () => void;
}

/** A small web server on 127.0.0.1 standing in for the sites people upload from. */
async function startSource(): Promise<Source> {
  const seen: Source['seen'] = [];
  let releaseDrip: () => void = () => undefined;
  let dripReleased = new Promise<void>((resolve) => (releaseDrip = resolve));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://source');
    seen.push({ method: req.method ?? '', path: url.pathname, origin: req.headers.origin, range: req.headers.range });
    const send = (status: number, headers: Record<string, string | number>, body?: Buffer) => {
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    switch (url.pathname) {
      case '/files/report%202030.pdf':
        return send(200, { 'content-type': 'application/pdf', 'content-length': FILE.length }, FILE);
      case '/cors/any.bin':
        return send(200, { 'content-type': 'application/octet-stream', 'content-length': FILE.length, 'access-control-allow-origin': '*' }, FILE);
      case '/cors/app-only.bin':
        return send(
          200,
          { 'content-type': 'application/octet-stream', 'content-length': FILE.length, 'access-control-allow-origin': 'http://app.example' },
          FILE,
        );
      case '/named':
        return send(
          200,
          {
            'content-type': 'text/plain; charset=utf-8',
            'content-length': 5,
            'content-disposition': `attachment; filename="resume.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%202030.txt`,
          },
          Buffer.from('hello'),
        );
      case '/no-head': {
        if (req.method === 'HEAD') return send(405, {});
        const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
        if (match) {
          const [start, end] = [Number(match[1]), Number(match[2])];
          return send(206, { 'content-type': 'image/png', 'content-range': `bytes ${start}-${end}/${FILE.length}`, 'content-length': end - start + 1 }, FILE.subarray(start, end + 1));
        }
        return send(200, { 'content-type': 'image/png', 'content-length': FILE.length }, FILE);
      }
      case '/chunked': {
        // No Content-Length: the size is known only by reading to the end.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        if (req.method === 'HEAD') return res.end();
        let at = 0;
        const pump = () => {
          while (at < BIG.length) {
            const chunk = BIG.subarray(at, at + 64 * 1024);
            at += chunk.length;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      case '/big':
        return send(200, { 'content-type': 'application/zip', 'content-length': BIG.length }, BIG);
      case '/drip':
        // Half the body, then nothing until the test has seen it come out of the proxy: proof of streaming.
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG.length });
        res.write(BIG.subarray(0, BIG.length / 2));
        void dripReleased.then(() => {
          res.end(BIG.subarray(BIG.length / 2));
          dripReleased = new Promise<void>((resolve) => (releaseDrip = resolve));
        });
        return;
      case '/slow':
        // Headers never come.
        return;
      case '/missing':
        return send(404, { 'content-type': 'text/plain' }, Buffer.from('nope'));
      case '/redirect':
        return send(302, { location: url.searchParams.get('to') ?? '/' });
      case '/hop': {
        const left = Number(url.searchParams.get('left') ?? 0);
        return send(302, { location: left > 0 ? `/hop?left=${left - 1}` : '/files/report%202030.pdf' });
      }
      default:
        return send(404, {});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, origin: `http://127.0.0.1:${port}`, seen, releaseDrip: () => releaseDrip() };
}

/** A documentation address the guard judges public; the fake network routes it to the local source. */
const PUBLIC_ADDRESS = '203.0.113.10';

let source: Source;
const fakeDns: Record<string, string[]> = {
  'files.example': [PUBLIC_ADDRESS],
  'inside.example': ['10.1.2.3'],
  'mixed.example': [PUBLIC_ADDRESS, '127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
};
const urlFetch = {
  resolve: async (hostname: string) => {
    const addresses = fakeDns[hostname];
    if (addresses) return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  },
  route: (address: string, port: number) => (address === PUBLIC_ADDRESS ? { address: '127.0.0.1', port: source.port } : { address, port }),
  idleTimeoutMs: 1500,
};
// The test app default: ALLOW_PRIVATE_URLS=1 (tests fetch from 127.0.0.1), so the local source is reachable.
const open = useTestApp({ urlFetch });
const strict = useTestApp({ env: { ALLOW_PRIVATE_URLS: '0' }, urlFetch });

beforeAll(async () => {
  source = await startSource();
});
afterAll(async () => {
  source?.server.closeAllConnections();
  await new Promise((resolve) => source?.server.close(resolve));
});

const info = (t: TestApp, token: string, url: string, headers: Record<string, string> = {}) =>
  t.request('/api/url/info', { token, json: { url }, headers });
const infoOk = async (t: TestApp, token: string, url: string, headers: Record<string, string> = {}) =>
  expectOk(await info(t, token, url, headers), urlInfoResponseSchema);

describe('url/info', () => {
  it('reports the final URL, name, size and type with one HEAD, and no CORS for a source without it', async () => {
    const before = source.seen.length;
    const answer = await infoOk(open, open.token, `${source.origin}/files/report%202030.pdf`);
    expect(answer).toEqual({
      url: `${source.origin}/files/report%202030.pdf`,
      filename: 'report 2030.pdf',
      size: FILE.length,
      contentType: 'application/pdf',
      corsAllowed: false,
    });
    expect(source.seen.slice(before).map((request) => request.method)).toEqual(['HEAD']);
  });

  it('says corsAllowed when the source answers Access-Control-Allow-Origin for the app origin (or *)', async () => {
    expect((await infoOk(open, open.token, `${source.origin}/cors/any.bin`)).corsAllowed).toBe(true);
    // The origin sent is the app's: the request's Origin, else the origin the server is reached at.
    expect((await infoOk(open, open.token, `${source.origin}/cors/app-only.bin`, { origin: 'http://app.example' })).corsAllowed).toBe(true);
    expect(source.seen.at(-1)?.origin).toBe('http://app.example');
    expect((await infoOk(open, open.token, `${source.origin}/cors/app-only.bin`, { origin: 'http://elsewhere.example' })).corsAllowed).toBe(false);
    expect((await infoOk(open, open.token, `${source.origin}/cors/app-only.bin`)).corsAllowed).toBe(false);
    expect(source.seen.at(-1)?.origin).toBe('http://localhost');
  });

  it('takes the name from Content-Disposition (filename* first)', async () => {
    expect(await infoOk(open, open.token, `${source.origin}/named`)).toMatchObject({ filename: 'résumé 2030.txt', size: 5, contentType: 'text/plain' });
  });

  it('falls back to a one-byte ranged GET when HEAD is refused, and when HEAD does not tell the size', async () => {
    const before = source.seen.length;
    expect(await infoOk(open, open.token, `${source.origin}/no-head`)).toMatchObject({ filename: 'no-head', size: FILE.length, contentType: 'image/png' });
    expect(source.seen.slice(before).map((request) => `${request.method} ${request.range ?? ''}`)).toEqual(['HEAD ', 'GET bytes=0-0']);
    expect((await infoOk(open, open.token, `${source.origin}/chunked`)).size).toBeNull();
  });

  it('follows up to 5 redirects and refuses a sixth', async () => {
    expect((await infoOk(open, open.token, `${source.origin}/hop?left=4`)).url).toBe(`${source.origin}/files/report%202030.pdf`);
    const tooMany = await expectError(await info(open, open.token, `${source.origin}/hop?left=5`), 400);
    expect(tooMany.message).toBe('The URL redirected more than 5 times');
  });

  it('answers 400 with the source status, and with a time-out for a source that never answers', async () => {
    const missing = await expectError(await info(open, open.token, `${source.origin}/missing`), 400);
    expect(missing.message).toBe('The source answered HTTP 404');
    const slow = await expectError(await info(open, open.token, `${source.origin}/slow`), 400);
    expect(slow.message).toBe('The source did not answer in time');
    const nowhere = await expectError(await info(open, open.token, 'http://no-such-host.example/x'), 400);
    expect(nowhere.message).toBe('The host no-such-host.example could not be resolved');
  });

  it('needs the file permission', async () => {
    await expectError(await open.request('/api/url/info', { json: { url: `${source.origin}/named` } }), 401);
    const textOnly = await open.createKey(open.token, { file_permission: false, text_permission: true });
    await expectError(await open.request('/api/url/info', { apiKey: textOnly.key, json: { url: `${source.origin}/named` } }), 403);
    const withFiles = await open.createKey(open.token, { file_permission: true });
    expect((await open.request('/api/url/info', { apiKey: withFiles.key, json: { url: `${source.origin}/named` } })).status).toBe(200);
  });
});

describe('the SSRF guard', () => {
  it('refuses loopback without ALLOW_PRIVATE_URLS and allows it with', async () => {
    const refused = await expectError(await info(strict, strict.token, `${source.origin}/named`), 400);
    // An address typed as such is named once.
    expect(refused.message).toBe('Private or loopback addresses are not allowed (127.0.0.1)');
    expect(refused.data).toMatchObject({ field: 'url', issue: 'loopback', address: '127.0.0.1' });
    const zh = await expectError(await info(strict, strict.token, `${source.origin}/named`, { 'accept-language': 'zh-CN' }), 400);
    expect(zh.message).toBe('不允许访问私有或回环地址（127.0.0.1）');
    // A name is shown with the address it resolved to.
    const inside = await expectError(await info(strict, strict.token, 'http://inside.example/x'), 400);
    expect(inside.message).toBe('Private or loopback addresses are not allowed (inside.example → 10.1.2.3)');
    expect((await info(open, open.token, `${source.origin}/named`)).status).toBe(200);
  });

  it.each([
    ['http://localhost:1/x', 'loopback'],
    ['http://[::1]:1/x', 'loopback'],
    ['http://[::ffff:127.0.0.1]:1/x', 'loopback'],
    ['http://10.0.0.1/x', 'private'],
    ['http://172.16.5.4/x', 'private'],
    ['http://192.168.0.1/x', 'private'],
    ['http://[fd00::1]/x', 'private'],
    ['http://100.64.0.1/x', 'cgnat'],
    ['http://169.254.10.10/x', 'link_local'],
    ['http://[fe80::1]/x', 'link_local'],
    ['http://inside.example/x', 'private'],
    ['http://mixed.example/x', 'loopback'],
  ])('refuses %s (%s) before connecting when private addresses are not allowed', async (url, issue) => {
    const before = source.seen.length;
    const refused = await expectError(await info(strict, strict.token, url), 400);
    expect(refused.data).toMatchObject({ field: 'url', issue });
    expect(source.seen.length).toBe(before);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'metadata', 'The cloud metadata address is never allowed (169.254.169.254)'],
    ['http://metadata.example/latest/meta-data/', 'metadata', 'The cloud metadata address is never allowed (metadata.example → 169.254.169.254)'],
    ['http://[::ffff:169.254.169.254]/', 'metadata', undefined],
    ['http://0.0.0.0:1/', 'unspecified', 'Multicast, unspecified or reserved addresses are not allowed (0.0.0.0)'],
    ['http://224.0.0.1/', 'multicast', undefined],
  ])('refuses %s always, ALLOW_PRIVATE_URLS or not', async (url, issue, message) => {
    for (const [t, token] of [
      [open, open.token],
      [strict, strict.token],
    ] as const) {
      const refused = await expectError(await info(t, token, url), 400);
      expect(refused.data).toMatchObject({ issue });
      if (message) expect(refused.message).toBe(message);
    }
  });

  it('fetches an allowed host, and re-checks every redirect: to loopback, to the metadata address, to another scheme', async () => {
    // files.example is public by the guard's judgement (the fake network delivers it to the local source).
    expect(await infoOk(strict, strict.token, 'http://files.example/files/report%202030.pdf')).toMatchObject({ size: FILE.length });
    const viaRedirect = await infoOk(strict, strict.token, `http://files.example/redirect?to=${encodeURIComponent('http://files.example/named')}`);
    expect(viaRedirect.url).toBe('http://files.example/named');

    const toLoopback = await expectError(
      await info(strict, strict.token, `http://files.example/redirect?to=${encodeURIComponent(`${source.origin}/named`)}`),
      400,
    );
    expect(toLoopback.message).toBe('Private or loopback addresses are not allowed (127.0.0.1)');
    const toMetadata = await expectError(
      await info(open, open.token, `${source.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`),
      400,
    );
    expect(toMetadata.data).toMatchObject({ issue: 'metadata' });
    const toFile = await expectError(await info(open, open.token, `${source.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`), 400);
    expect(toFile.message).toBe('Only http and https URLs can be fetched');
  });

  it('refuses other schemes and URLs with credentials before anything else', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:70/', 'javascript:alert(1)', 'not a url']) {
      expect((await expectError(await info(open, open.token, url), 400)).data).toMatchObject({ field: 'url' });
    }
    const credentials = await expectError(await info(open, open.token, `http://user:secret@127.0.0.1:${source.port}/named`), 400);
    expect(credentials.message).toBe('URLs with a user name or password are not allowed');
    for (const url of ['file:///etc/passwd', `http://10.0.0.1/x`, 'http://169.254.169.254/']) {
      await expectError(await strict.request(`/api/url/proxy?url=${encodeURIComponent(url)}`, { token: strict.token }), 400);
    }
  });
});

describe('url/proxy', () => {
  const proxy = (t: TestApp, token: string, url: string) => t.request(`/api/url/proxy?url=${encodeURIComponent(url)}`, { token });

  it('streams the source byte-identical, as an attachment that cannot run as the app', async () => {
    const res = await proxy(open, open.token, `${source.origin}/big`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-length')).toBe(String(BIG.length));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="big"/);
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sha256(await bytesOf(res))).toBe(sha256(BIG));
    expect(sha256(await bytesOf(await proxy(open, open.token, `${source.origin}/chunked`)))).toBe(sha256(BIG));
  });

  it('passes bytes on as they come (never waits for the whole source)', async () => {
    const res = await proxy(open, open.token, `${source.origin}/drip`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let received = 0;
    const chunks: Uint8Array[] = [];
    // The source holds back its second half until the first has come out of the proxy.
    while (received < BIG.length / 2) {
      const next = await reader.read();
      if (next.done) throw new Error('ended early');
      chunks.push(next.value);
      received += next.value.length;
    }
    source.releaseDrip();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
      received += next.value.length;
    }
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(BIG));
  });

  it('stops at the max upload size: 413 when the source declares more, cut off when it sends more', async () => {
    const files = fileClient(open);
    await files.setMaxUploadMb(open.token, 1);
    try {
      const declared = await expectError(await proxy(open, open.token, `${source.origin}/big`), 413);
      expect(declared.data).toMatchObject({ fileSize: BIG.length, maxUploadSize: MiB });
      const res = await proxy(open, open.token, `${source.origin}/chunked`);
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let received = 0;
      await expect(
        (async () => {
          for (let next = await reader.read(); !next.done; next = await reader.read()) received += next.value.length;
        })(),
      ).rejects.toThrow();
      expect(received).toBeLessThanOrEqual(MiB);
    } finally {
      await files.setMaxUploadMb(open.token, 100);
    }
  });

  it('answers 400 for a failing source and needs the file permission', async () => {
    expect((await expectError(await proxy(open, open.token, `${source.origin}/missing`), 400)).message).toBe('The source answered HTTP 404');
    await expectError(await open.request(`/api/url/proxy?url=${encodeURIComponent(`${source.origin}/big`)}`), 401);
    await expectError(await open.request('/api/url/proxy', { token: open.token }), 400);
  });
});

describe('url/presign and url/commit', () => {
  it('records the source, takes the PUT, commits, and the download is byte-identical', async () => {
    const f = fileClient(open);
    const presigned = await expectOk(
      await open.request('/api/url/presign', {
        token: open.token,
        json: { url: `${source.origin}/files/report%202030.pdf`, filename: 'report 2030.pdf', mimetype: 'application/pdf', size: FILE.length, slug: 'from-url' },
      }),
      presignResponseSchema,
    );
    expect(presigned).toMatchObject({ slug: 'from-url', contentType: 'application/pdf' });
    expect((await f.rowById(presigned.file_id))?.source_url).toBe(`${source.origin}/files/report%202030.pdf`);
    expect((await f.putTo(presigned.upload_url, FILE, presigned.contentType)).status).toBe(200);
    const share = await expectOk(
      await open.request('/api/url/commit', { token: open.token, json: { file_id: presigned.file_id, remark: 'fetched', mimetype: '' } }),
      fileShareSchema,
      201,
    );
    expect(share).toMatchObject({ slug: 'from-url', filename: 'report 2030.pdf', mimetype: 'application/pdf', remark: 'fetched', size: FILE.length });
    expect(sha256(await bytesOf(await f.download('from-url', '', { token: open.token })))).toBe(sha256(FILE));
    const badUrl = await expectError(
      await open.request('/api/url/presign', { token: open.token, json: { url: 'ftp://x/y', filename: 'y', size: 1 } }),
      400,
    );
    expect(badUrl.data).toMatchObject({ field: 'url' });
  });
});
