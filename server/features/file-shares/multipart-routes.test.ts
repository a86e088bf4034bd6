/**
 * Multipart file-share uploads end to end, the same tests on the embedded LOCAL storage and on a real S3 service
 * (s3rver): init → sign → real HTTP PUTs of the parts (out of order) → complete → a byte-identical download;
 * resume by listing parts; abort and url/cancel leaving no record and nothing on storage; the complete checks;
 * the init limits; creator-only access; the sweep aborting abandoned uploads.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import { fileShareSchema, PRESIGN_TTL_SECONDS, presignResponseSchema } from '../../../contract/files';
import {
  multipartInitResponseSchema,
  multipartPartsResponseSchema,
  multipartSignResponseSchema,
  type MultipartInitResponse,
} from '../../../contract/multipart';
import { MAX_PARTS_SIGNED_AT_ONCE, MIN_PART_BYTES } from '../../../contract/parts';
import { storageConfigSchema } from '../../../contract/storage';
import { bytesOf, fileClient, md5, partEtagOn, sha256, type Auth } from '../../../tests/fixtures/files';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, MINUTE, useTestApp } from '../../../tests/fixtures/test-app';
import { sweepStaleUploads } from '../upload-sweeper';

// Real S3 traffic with 5 MiB parts on two shared cores.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const MiB = 1024 * 1024;
type Kind = 'LOCAL' | 'S3';
type Family = 's3' | 'url';

/** Quick, varied bytes (not a repeating short pattern, so that a misplaced part changes the hash). */
function bytesOfSize(size: number, seed: number): Buffer<ArrayBuffer> {
  const out = Buffer.alloc(size);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i + 4 <= size; i += 4) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}

describe.each<Kind>(['LOCAL', 'S3'])('multipart file shares on %s storage', (kind) => {
  const t = useTestApp();
  let key: CreatedApiKey;
  let other: CreatedApiKey;
  let s3: RunningS3rver | undefined;
  let configId: string;
  /** Every object key storage holds. */
  let objectKeys: () => Promise<string[]>;
  /** Files of multipart uploads in progress on storage (LOCAL staging, s3rver upload folders). */
  let stagedUploads: () => string[];
  let f: ReturnType<typeof fileClient>;
  const admin = (): Auth => ({ token: t.token });

  beforeAll(async () => {
    key = await t.createKey(t.token, { file_permission: true });
    other = await t.createKey(t.token, { file_permission: true });
    f = fileClient(t);
    if (kind === 'LOCAL') {
      const local = await f.builtinLocal(t.token);
      configId = local.id;
      const root = join(t.dataDir, 'storage', local.id);
      const walk = (dir: string, prefix = ''): string[] =>
        existsSync(dir)
          ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
              entry.isDirectory() ? walk(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
            )
          : [];
      objectKeys = async () => walk(root).filter((file) => !file.startsWith('.staging') && !file.startsWith('.meta'));
      stagedUploads = () => walk(join(root, '.staging'));
    } else {
      const server = await startS3rver();
      s3 = server;
      const client = new S3Client({
        endpoint: server.endpoint,
        region: server.region,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
        forcePathStyle: true,
      });
      configId = (await expectOk(await t.request('/api/s3-configs', { token: t.token, json: server.configRequest({ is_public: true }) }), storageConfigSchema, 201)).id;
      objectKeys = async () =>
        ((await client.send(new ListObjectsV2Command({ Bucket: server.bucket, MaxKeys: 1000 }))).Contents ?? []).map((object) => object.Key ?? '');
      const uploads = join(server.directory, server.bucket, '._S3rver_uploads');
      stagedUploads = () => (existsSync(uploads) ? readdirSync(uploads, { recursive: true }).map(String) : []);
    }
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const init = (family: Family, body: Record<string, unknown>, auth: Auth) =>
    t.request(`/api/${family}/multipart/init`, { ...auth, json: { s3_config_id: configId, filename: 'big.bin', part_size: MIN_PART_BYTES, ...body } });
  const initOk = async (family: Family, body: Record<string, unknown>, auth: Auth): Promise<MultipartInitResponse> =>
    expectOk(await init(family, body, auth), multipartInitResponseSchema);
  const sign = (family: Family, ref: MultipartInitResponse, partNumbers: number[], auth: Auth) =>
    t.request(`/api/${family}/multipart/sign`, { ...auth, json: { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers } });
  const parts = (family: Family, ref: Pick<MultipartInitResponse, 'file_id' | 'upload_id'>, auth: Auth) =>
    t.request(`/api/${family}/multipart/parts?file_id=${encodeURIComponent(ref.file_id)}&upload_id=${encodeURIComponent(ref.upload_id)}`, auth);
  const complete = (family: Family, ref: MultipartInitResponse, list: { partNumber: number; etag: string }[], auth: Auth, extra = {}) =>
    t.request(`/api/${family}/multipart/complete`, { ...auth, json: { file_id: ref.file_id, upload_id: ref.upload_id, parts: list, ...extra } });
  const abort = (family: Family, ref: Pick<MultipartInitResponse, 'file_id' | 'upload_id'>, auth: Auth) =>
    t.request(`/api/${family}/multipart/abort`, { ...auth, json: { file_id: ref.file_id, upload_id: ref.upload_id } });

  /** Signs one part and PUTs it over real HTTP (LOCAL: to this app's listening server; S3: to s3rver). */
  async function sendPart(family: Family, ref: MultipartInitResponse, partNumber: number, bytes: Uint8Array, auth: Auth): Promise<Response> {
    const signed = await expectOk(await sign(family, ref, [partNumber], auth), multipartSignResponseSchema);
    const url = await t.overHttp(signed.urls[0]?.url ?? '');
    return fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { origin: 'http://app.example' } });
  }
  async function sendPartOk(family: Family, ref: MultipartInitResponse, partNumber: number, bytes: Uint8Array, auth: Auth) {
    const res = await sendPart(family, ref, partNumber, bytes, auth);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag/i);
    const etag = (res.headers.get('etag') ?? '').replace(/"/g, '');
    expect(etag).toBe(partEtagOn(kind, bytes));
    return { partNumber, etag };
  }
  const split = (bytes: Buffer, partSize = MIN_PART_BYTES) =>
    Array.from({ length: Math.ceil(bytes.length / partSize) }, (_, index) => bytes.subarray(index * partSize, (index + 1) * partSize));

  it('uploads in parts sent out of order over HTTP, completes with the share options, downloads byte-identical', async () => {
    const bytes = bytesOfSize(2 * MIN_PART_BYTES + 777_777, 1);
    const ref = await initOk('s3', { filename: 'movie ü.mp4', mimetype: 'video/mp4', size: bytes.length }, admin());
    expect(ref).toMatchObject({ part_size: MIN_PART_BYTES, part_count: 3, storage_path: expect.stringMatching(/-movie ü\.mp4$/) });
    const pending = await f.rowById(ref.file_id);
    expect(pending).toMatchObject({ status: 'pending', upload_id: ref.upload_id, part_size: MIN_PART_BYTES, size: bytes.length });

    // A few URLs at once are fine too.
    const several = await expectOk(await sign('s3', ref, [1, 2, 3], admin()), multipartSignResponseSchema);
    expect(several.urls.map((url) => url.partNumber)).toEqual([1, 2, 3]);
    expect(several.expires_in).toBe(PRESIGN_TTL_SECONDS);

    const chunks = split(bytes);
    const sent = [];
    for (const index of [2, 0, 1]) sent[index] = await sendPartOk('s3', ref, index + 1, chunks[index] as Buffer, admin());
    const res = await complete('s3', ref, sent, admin(), { remark: 'in parts', max_views: 4, expires_in: 2, password: 'pw' });
    const share = await expectOk(res, fileShareSchema, 201);
    expect(share).toMatchObject({
      id: ref.file_id,
      filename: 'movie ü.mp4',
      mimetype: 'video/mp4',
      size: bytes.length,
      storage_path: ref.storage_path,
      remark: 'in parts',
      maxViews: 4,
      hasPassword: true,
      expiresAt: new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString(),
      state: 'active',
    });
    // LOCAL stores the MD5 of the whole object; S3 its multipart ETag (s3rver: the MD5 too, without `-3`).
    expect(share.etag).toMatch(/^[0-9a-f]{32}(-3)?$/);
    // Completing again (a lost answer, a retry) answers the same record.
    expect(await expectOk(await complete('s3', ref, sent, admin()), fileShareSchema, 200)).toEqual(share);

    const download = await f.download(share.slug, '', { token: t.token });
    expect(download.status).toBe(200);
    expect(sha256(await bytesOf(download))).toBe(sha256(bytes));
    expect(stagedUploads()).toEqual([]);
  });

  it('resumes: lists the parts storage holds after a partial upload, sends only the rest', async () => {
    const bytes = bytesOfSize(2 * MIN_PART_BYTES + 10, 2);
    const chunks = split(bytes);
    const ref = await initOk('s3', { size: bytes.length }, { apiKey: key.key });
    const first = await sendPartOk('s3', ref, 1, chunks[0] as Buffer, { apiKey: key.key });
    const third = await sendPartOk('s3', ref, 3, chunks[2] as Buffer, { apiKey: key.key });

    // A reload later: the worker asks what is there.
    const listed = await expectOk(await parts('s3', ref, { apiKey: key.key }), multipartPartsResponseSchema);
    expect(listed.parts).toEqual([
      { partNumber: 1, size: MIN_PART_BYTES, etag: first.etag },
      { partNumber: 3, size: 10, etag: third.etag },
    ]);
    const second = await sendPartOk('s3', ref, 2, chunks[1] as Buffer, { apiKey: key.key });
    const share = await expectOk(await complete('s3', ref, [first, second, third], { apiKey: key.key }), fileShareSchema, 201);
    expect(share.created_by).toBe(`apikey:${key.id}`);
    expect(sha256(await bytesOf(await f.download(share.slug, '', { apiKey: key.key })))).toBe(sha256(bytes));
  });

  it('takes URL uploads through /api/url/multipart with the source address kept on the record', async () => {
    const bytes = bytesOfSize(MIN_PART_BYTES + 4321, 3);
    const chunks = split(bytes);
    const ref = await initOk('url', { filename: 'fetched.iso', size: bytes.length, source_url: 'https://example.com/fetched.iso', slug: `url-mp-${kind}` }, admin());
    const sent = [await sendPartOk('url', ref, 1, chunks[0] as Buffer, admin()), await sendPartOk('url', ref, 2, chunks[1] as Buffer, admin())];
    const share = await expectOk(await complete('url', ref, sent, admin()), fileShareSchema, 201);
    expect(share.slug).toBe(`url-mp-${kind}`);
    expect((await f.rowById(ref.file_id))?.source_url).toBe('https://example.com/fetched.iso');
    expect(sha256(await bytesOf(await f.download(share.slug, '', { token: t.token })))).toBe(sha256(bytes));
    // The source must be an http(s) URL.
    const bad = await expectError(await init('url', { size: 10, source_url: 'file:///etc/passwd' }, admin()), 400);
    expect(bad.data).toMatchObject({ field: 'source_url' });
  });

  it.each<Family>(['s3', 'url'])('abort (%s) leaves no record and nothing on storage', async (family) => {
    const keysBefore = await objectKeys();
    const bytes = bytesOfSize(MIN_PART_BYTES + 100, 4);
    const ref = await initOk(family, { size: bytes.length }, { apiKey: key.key });
    await sendPartOk(family, ref, 1, split(bytes)[0] as Buffer, { apiKey: key.key });
    expect(stagedUploads().length).toBeGreaterThan(0);
    const signedBefore = await expectOk(await sign(family, ref, [2], { apiKey: key.key }), multipartSignResponseSchema);

    const res = await abort(family, ref, { apiKey: key.key });
    expect(res.status).toBe(200);
    expect(await f.rowById(ref.file_id)).toBeUndefined();
    expect(stagedUploads()).toEqual([]);
    expect(await objectKeys()).toEqual(keysBefore);
    // The part URLs handed out before are dead: a late part does not bring the upload back.
    const late = await fetch(await t.overHttp(signedBefore.urls[0]?.url ?? ''), { method: 'PUT', body: new Uint8Array(100) });
    expect(late.status).toBe(404);
    expect(stagedUploads()).toEqual([]);
    await expectError(await abort(family, ref, { apiKey: key.key }), 404);
    await expectError(await parts(family, ref, { apiKey: key.key }), 404);
  });

  it('url/cancel drops a pending multipart upload and a pending single upload with what reached storage', async () => {
    const keysBefore = await objectKeys();
    const bytes = bytesOfSize(MIN_PART_BYTES + 100, 5);
    const ref = await initOk('url', { size: bytes.length, source_url: 'http://example.com/a' }, admin());
    await sendPartOk('url', ref, 2, split(bytes)[1] as Buffer, admin());
    expect((await t.request('/api/url/cancel', { token: t.token, json: { file_id: ref.file_id } })).status).toBe(200);
    expect(await f.rowById(ref.file_id)).toBeUndefined();
    expect(stagedUploads()).toEqual([]);

    const single = await expectOk(
      await t.request('/api/url/presign', {
        token: t.token,
        json: { url: 'http://example.com/b.txt', s3_config_id: configId, filename: 'b.txt', mimetype: 'text/plain', size: 5 },
      }),
      presignResponseSchema,
    );
    expect((await f.rowById(single.file_id))?.source_url).toBe('http://example.com/b.txt');
    expect((await f.putTo(single.upload_url, new Uint8Array([1, 2, 3, 4, 5]), single.contentType)).status).toBe(200);
    expect(await objectKeys()).toContain(single.storage_path);
    expect((await t.request('/api/url/cancel', { token: t.token, json: { file_id: single.file_id } })).status).toBe(200);
    expect(await f.rowById(single.file_id)).toBeUndefined();
    expect(await objectKeys()).toEqual(keysBefore);
    await expectError(await t.request('/api/url/cancel', { token: t.token, json: { file_id: single.file_id } }), 404);

    // A committed file is not "cancelled".
    const done = await f.directUpload(new Uint8Array([9, 9, 9]), admin(), { s3_config_id: configId });
    await expectError(await t.request('/api/url/cancel', { token: t.token, json: { file_id: done.share.id } }), 409);
  });

  it('refuses to complete with a wrong ETag, a missing part, a small part that is not the last, or sizes that do not add up', async () => {
    const bytes = bytesOfSize(MIN_PART_BYTES + 1000, 6);
    const chunks = split(bytes);
    const ref = await initOk('s3', { size: bytes.length }, admin());
    const first = await sendPartOk('s3', ref, 1, chunks[0] as Buffer, admin());

    const missing = await expectError(await complete('s3', ref, [first, { partNumber: 2, etag: partEtagOn(kind, chunks[1] as Buffer) }], admin()), 400);
    expect(missing.message).toBe('Part 2 has not been uploaded');
    expect(missing.data).toMatchObject({ field: 'parts', issue: 'missing', partNumber: 2 });

    const second = await sendPartOk('s3', ref, 2, chunks[1] as Buffer, admin());
    const wrong = await expectError(await complete('s3', ref, [{ partNumber: 1, etag: md5(Buffer.from('nope')) }, second], admin()), 400);
    expect(wrong.message).toBe('Part 1 does not match its ETag: the storage holds other bytes for it');
    const order = await expectError(await complete('s3', ref, [second, first], admin()), 400);
    expect(order.data).toMatchObject({ issue: 'order' });

    // Part 1 again, but only 1 KiB of it: storage now holds a small part that is not the last.
    await sendPartOk('s3', ref, 1, bytes.subarray(0, 1024), admin());
    const small = await expectError(await complete('s3', ref, [{ partNumber: 1, etag: partEtagOn(kind, bytes.subarray(0, 1024)) }, second], admin()), 400);
    expect(small.message).toBe('Part 1 is 1024 bytes; every part but the last must be at least 5 MiB (5242880 bytes)');

    // Whole part 1, a short part 2: the sizes do not add up to the declared size.
    await sendPartOk('s3', ref, 1, chunks[0] as Buffer, admin());
    const short = await sendPartOk('s3', ref, 2, (chunks[1] as Buffer).subarray(0, 10), admin());
    const mismatch = await expectError(await complete('s3', ref, [first, short], admin()), 400);
    expect(mismatch.message).toBe(`The storage holds ${MIN_PART_BYTES + 10} bytes, not the declared ${bytes.length}`);
    // Nothing was assembled; the upload is still there to fix.
    expect((await f.rowById(ref.file_id))?.status).toBe('pending');
    await sendPartOk('s3', ref, 2, chunks[1] as Buffer, admin());
    const share = await expectOk(await complete('s3', ref, [first, second], admin()), fileShareSchema, 201);
    expect(sha256(await bytesOf(await f.download(share.slug, '', { token: t.token })))).toBe(sha256(bytes));
    // A finished upload takes no more parts.
    await expectError(await sign('s3', ref, [1], admin()), 409);
    // A multipart record is finished by complete, not commit.
    const another = await initOk('s3', { size: 100 }, admin());
    expect((await expectError(await f.commit({ file_id: another.file_id }, admin()), 400)).data).toMatchObject({ issue: 'multipart' });
    await abort('s3', another, admin());
  });

  // Our own part URLs check the body against the plan; real S3 enforces its own rules on complete.
  if (kind === 'LOCAL') {
    it('LOCAL refuses a part body larger than its planned size (413)', async () => {
      const ref = await initOk('s3', { size: MIN_PART_BYTES + 10 }, admin());
      const res = await sendPart('s3', ref, 2, new Uint8Array(11), admin());
      expect(res.status).toBe(413);
      const ok = await sendPart('s3', ref, 2, new Uint8Array(10), admin());
      expect(ok.status).toBe(200);
      await abort('s3', ref, admin());
    });
  }

  it('checks the plan and the limits at init', async () => {
    const tooSmall = await expectError(await init('s3', { size: 100, part_size: 1024 }, admin()), 400);
    expect(tooSmall.data).toMatchObject({ field: 'part_size', issue: 'too_small' });
    const tooLarge = await expectError(await init('s3', { size: 6 * 1024 * MiB, part_size: 6 * 1024 * MiB }, admin()), 400);
    expect(tooLarge.message).toBe('A part may be at most 5 GiB (5368709120 bytes)');

    await f.setMaxUploadMb(t.token, 100 * 1024);
    try {
      const many = await expectError(await init('s3', { size: 10_001 * MIN_PART_BYTES }, admin()), 400);
      expect(many.message).toBe('A part size of 5242880 bytes would need 10001 parts; at most 10000 are allowed');
      expect(many.data).toMatchObject({ field: 'part_size', issue: 'too_many_parts', partCount: 10_001 });
      const fine = await initOk('s3', { size: 10_000 * MIN_PART_BYTES }, admin());
      expect(fine.part_count).toBe(10_000);
      expect((await expectError(await sign('s3', fine, [10_000, 10_001], admin()), 400)).data).toMatchObject({ field: 'partNumbers.1' });
      await abort('s3', fine, admin());
    } finally {
      await f.setMaxUploadMb(t.token, 100);
    }
    const over = await expectError(await init('s3', { size: 101 * MiB }, admin()), 413);
    expect(over.data).toMatchObject({ fileSize: 101 * MiB, maxUploadSize: 100 * MiB });
    const tooManySigned = await expectError(
      await sign('s3', { file_id: 'x', upload_id: 'y' } as MultipartInitResponse, Array.from({ length: MAX_PARTS_SIGNED_AT_ONCE + 1 }, (_, i) => i + 1), admin()),
      400,
    );
    expect(tooManySigned.data).toMatchObject({ field: 'partNumbers' });

    const slugged = await initOk('s3', { size: 100, slug: `taken-${kind}` }, admin());
    await expectError(await init('s3', { size: 100, slug: `taken-${kind}` }, admin()), 409);
    await abort('s3', slugged, admin());
    // A key may use public storage configs only.
    const hidden = await expectOk(
      await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: `hidden ${kind}`, is_public: false } }),
      storageConfigSchema,
      201,
    );
    await expectError(await init('s3', { size: 100, s3_config_id: hidden.id }, { apiKey: key.key }), 403);
    // Pending multipart uploads count against a quota.
    const quota = await expectOk(
      await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: `quota ${kind}`, is_public: true, total_storage_bytes: 8 * MiB } }),
      storageConfigSchema,
      201,
    );
    const held = await initOk('s3', { size: 6 * MiB, s3_config_id: quota.id }, admin());
    const full = await expectError(await init('s3', { size: 6 * MiB, s3_config_id: quota.id }, admin()), 413);
    expect(full.data).toMatchObject({ fileSize: 6 * MiB, remaining: 2 * MiB, total: 8 * MiB });
    await abort('s3', held, admin());
  });

  it('lets only the creator touch its upload', async () => {
    const bytes = bytesOfSize(MIN_PART_BYTES + 1, 7);
    const ref = await initOk('s3', { size: bytes.length }, { apiKey: key.key });
    const mine = await sendPartOk('s3', ref, 1, split(bytes)[0] as Buffer, { apiKey: key.key });
    for (const stranger of [{ apiKey: other.key }, admin()]) {
      await expectError(await sign('s3', ref, [2], stranger), 404);
      await expectError(await parts('s3', ref, stranger), 404);
      await expectError(await complete('s3', ref, [mine], stranger), 404);
      await expectError(await abort('s3', ref, stranger), 404);
      await expectError(await t.request('/api/url/cancel', { ...stranger, json: { file_id: ref.file_id } }), 404);
    }
    // Nor does the right file with another upload id work.
    await expectError(await parts('s3', { file_id: ref.file_id, upload_id: 'not-the-upload' }, { apiKey: key.key }), 404);
    const noFiles = await t.createKey(t.token, { file_permission: false, text_permission: true });
    await expectError(await init('s3', { size: 10 }, { apiKey: noFiles.key }), 403);
    await expectError(await sign('s3', ref, [2], { apiKey: noFiles.key }), 403);
    await expectError(await init('s3', { size: 10 }, {}), 401);
    await expectError(await init('url', { size: 10 }, {}), 401);
    // Still intact for its owner.
    expect((await expectOk(await parts('s3', ref, { apiKey: key.key }), multipartPartsResponseSchema)).parts).toHaveLength(1);
    await abort('s3', ref, { apiKey: key.key });
  });

  it('sweeps abandoned multipart uploads: aborted on storage, record removed; an active one is kept', async () => {
    const keysBefore = await objectKeys();
    const bytes = bytesOfSize(MIN_PART_BYTES + 50, 8);
    const chunks = split(bytes);
    const stale = await initOk('s3', { size: bytes.length }, { apiKey: key.key });
    await sendPartOk('s3', stale, 1, chunks[0] as Buffer, { apiKey: key.key });
    const active = await initOk('url', { size: bytes.length }, admin());
    await sendPartOk('url', active, 1, chunks[0] as Buffer, admin());

    t.clock.advance(PRESIGN_TTL_SECONDS * 1000 - MINUTE);
    // The active upload signs its next part: it is alive for another presign lifetime.
    await sendPartOk('url', active, 2, chunks[1] as Buffer, admin());
    t.clock.advance(2 * MINUTE);
    const swept = await sweepStaleUploads(t.deps);
    expect(swept).toMatchObject({ removed: expect.any(Number), failed: 0 });
    expect(swept.removed).toBeGreaterThanOrEqual(1);
    expect(await f.rowById(stale.file_id)).toBeUndefined();
    await expectError(await parts('s3', stale, { apiKey: key.key }), 404);
    expect(await f.rowById(active.file_id)).toBeDefined();
    const listed = await expectOk(await parts('url', active, admin()), multipartPartsResponseSchema);
    expect(listed.parts.map((part) => part.partNumber)).toEqual([1, 2]);

    // An hour without a sign or a list: the active one goes too, and storage is clean.
    t.clock.advance(PRESIGN_TTL_SECONDS * 1000 + MINUTE);
    await expectError(await complete('url', active, listed.parts, admin()), 410);
    expect(await f.rowById(active.file_id)).toBeUndefined();
    expect(await sweepStaleUploads(t.deps)).toEqual({ removed: 0, failed: 0 });
    expect(stagedUploads()).toEqual([]);
    expect(await objectKeys()).toEqual(keysBefore);
  });
});
