import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, fileClient, md5, patternBytes } from '../../../tests/fixtures/files';
import { expectError, MINUTE, useTestApp } from '../../../tests/fixtures/test-app';
import { driverFor } from '../../storage/registry';
import { findStorageConfig } from './configs';

/** The signed URLs of LOCAL storage: what S3's presigned URLs are for buckets, served by this server. */
describe('/api/local-storage signed URLs', () => {
  const t = useTestApp();
  let configId: string;
  let f: ReturnType<typeof fileClient>;
  const root = () => join(t.dataDir, 'storage', configId);
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return { path: parsed.pathname, query: parsed.searchParams };
  };
  const put = (path: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
    t.request(path, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream', ...headers } });
  const presign = async (size: number) => f.presignOk({ filename: 'x.bin', size }, { token: t.token });

  beforeAll(async () => {
    f = fileClient(t);
    configId = (await f.builtinLocal(t.token)).id;
  });

  it('takes a PUT to a fresh signed URL and answers the MD5 ETag, exposed to pages on any origin', async () => {
    const presigned = await presign(2000);
    const url = new URL(presigned.upload_url);
    expect(url.origin).toBe('http://localhost');
    expect(url.pathname).toBe(`/api/local-storage/${configId}/${presigned.storage_path.split('/').map(encodeURIComponent).join('/')}`);
    expect([...url.searchParams.keys()].sort()).toEqual(['expires', 'sig', 'size']);
    const bytes = patternBytes(2000);
    const res = await put(url.pathname + url.search, bytes, { origin: 'https://elsewhere.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${md5(bytes)}"`);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/\bETag\b/);
    expect(existsSync(join(root(), ...presigned.storage_path.split('/')))).toBe(true);
  });

  it('refuses to overwrite the bytes of a committed share through a URL that is still valid (409)', async () => {
    const presigned = await presign(100);
    const { path, query } = pathOf(presigned.upload_url);
    expect((await put(`${path}?${query}`, patternBytes(100, 1))).status).toBe(200);
    expect((await put(`${path}?${query}`, patternBytes(100, 2))).status).toBe(200);
    await f.commit({ file_id: presigned.file_id }, { token: t.token });
    const again = await expectError(await put(`${path}?${query}`, patternBytes(100, 3)), 409);
    expect(again.message).toBe('This upload is already complete');
    expect(await bytesOf(await f.download(presigned.slug, '', { token: t.token }))).toEqual(patternBytes(100, 2));
  });

  it('answers a CORS preflight for PUT with the requested headers', async () => {
    const presigned = await presign(10);
    const { path } = pathOf(presigned.upload_url);
    const res = await t.request(path, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toMatch(/PUT/);
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('refuses a tampered signature, key, size or expiry (403) and writes nothing', async () => {
    const presigned = await presign(100);
    const { path, query } = pathOf(presigned.upload_url);
    const sig = query.get('sig') ?? '';
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const variants = [
      `${path}?${new URLSearchParams({ ...Object.fromEntries(query), sig: flipped })}`,
      `${path}?${new URLSearchParams({ ...Object.fromEntries(query), size: '1000000' })}`,
      `${path}?${new URLSearchParams({ ...Object.fromEntries(query), expires: String(Number(query.get('expires')) + 3600) })}`,
      `${path.replace(/[^/]+$/, 'other-name.bin')}?${query}`,
      `${path}?${new URLSearchParams({ expires: query.get('expires') ?? '', size: '100' })}`,
      `/api/local-storage/${configId}/..%2F..%2Fsecret.key?${query}`,
    ];
    for (const variant of variants) {
      const body = await expectError(await put(variant, patternBytes(100)), 403);
      expect(body.message).toBe('The signature of this URL is invalid');
    }
    // Dot segments are resolved by the URL parser before routing: whatever they name, nothing is written.
    const climbing = await put(`/api/local-storage/${configId}/%2E%2E/%2E%2E/secret.key?${query}`, patternBytes(100));
    expect([403, 404]).toContain(climbing.status);
    expect(existsSync(join(root(), ...presigned.storage_path.split('/')))).toBe(false);
  });

  it('refuses an expired URL (403) once the presign lifetime has passed', async () => {
    const presigned = await presign(100);
    const { path, query } = pathOf(presigned.upload_url);
    t.clock.advance(presigned.expires_in * 1000 + MINUTE);
    const body = await expectError(await put(`${path}?${query}`, patternBytes(100)), 403);
    expect(body.message).toBe('This URL has expired');
    expect(body.data.error).toBe('forbidden');
  });

  it('refuses a body larger than the signed size (413) and leaves no partial object', async () => {
    const presigned = await presign(1000);
    const { path, query } = pathOf(presigned.upload_url);
    // Declared too large up front…
    await expectError(await put(`${path}?${query}`, patternBytes(5000)), 413);
    // …or only found out while streaming (no Content-Length).
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(patternBytes(1000));
        controller.close();
      },
    });
    const res = await t.request(`${path}?${query}`, { method: 'PUT', body: stream, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(413);
    expect(existsSync(join(root(), ...presigned.storage_path.split('/')))).toBe(false);
    const staging = join(root(), '.staging');
    expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
  });

  it('does not apply the 11 MB JSON cap to a stored file whose type is JSON', async () => {
    const size = 12 * 1024 * 1024;
    const presigned = await f.presignOk({ filename: 'big.json', mimetype: 'application/json', size }, { token: t.token });
    const { path, query } = pathOf(presigned.upload_url);
    const res = await put(`${path}?${query}`, patternBytes(size), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
  });

  it('serves signed GET URLs with ranges, the signed disposition and filename, and refuses a PUT signature for GET', async () => {
    const bytes = patternBytes(3000, 4);
    const share = await f.uploadOk(bytes, { token: t.token }, { filename: 'notes.txt', type: 'text/plain' });
    const config = await findStorageConfig(t.db, share.s3_config_id);
    if (!config) throw new Error('config missing');
    const url = await driverFor(t.deps, config).presignGet(share.storage_path, {
      expiresInSeconds: 600,
      baseUrl: 'http://localhost',
      disposition: 'attachment',
      filename: 'notes.txt',
      contentType: 'text/plain',
    });
    const { path, query } = pathOf(url);
    const res = await t.request(`${path}?${query}`, { headers: { range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await bytesOf(res)).toEqual(bytes.subarray(10, 20));

    const head = await t.request(`${path}?${query}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('3000');

    const presigned = await presign(10);
    const putUrl = pathOf(presigned.upload_url);
    await expectError(await t.request(`${putUrl.path}?${putUrl.query}`), 403);
    await expectError(await put(`${path}?${query}`, patternBytes(10)), 403);
  });
});
