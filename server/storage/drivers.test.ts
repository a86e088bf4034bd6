import { createHash, randomBytes } from 'node:crypto';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contractNow, contractSecrets, listFiles, remoteSubject, type DriverSubject } from '../../tests/fixtures/driver-subject';
import { stagedPartEtag } from '../../tests/fixtures/files';
import { memoryRemoteFileSystem } from '../../tests/fixtures/memory-remote-fs';
import { startS3rver } from '../../tests/fixtures/s3rver';
import { InvalidPartError, MultipartUploadNotFoundError, ObjectNotFoundError, UnsafeKeyError, type StorageDriver } from './driver';
import { createLocalDriver } from './local';
import { verifyLocalUrl } from './local-urls';
import { createS3Driver } from './s3';
import { S3_PART_SIZE } from './s3/objects';

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A stream that yields `bytes` in small chunks, then fails. */
function failingAfter(bytes: Buffer): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
      throw new Error('client went away');
    })(),
  );
}

type Subject = DriverSubject;
const secrets = contractSecrets;
const now = contractNow;

async function localSubject(): Promise<Subject> {
  const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
  const driver = createLocalDriver({ root, configId: 'cfg-1', secrets, now });
  return {
    name: 'LOCAL',
    driver,
    md5Etags: true,
    partEtag: stagedPartEtag,
    storedFiles: () => listFiles(root),
    sendPart: async (key, uploadId, partNumber, bytes) => (await driver.uploadPart(key, uploadId, partNumber, Readable.from([bytes]))).etag,
    stagedFiles: () => listFiles(join(root, '.staging')),
    stop: async () => rmSync(root, { recursive: true, force: true }),
  };
}

async function s3Subject(): Promise<Subject> {
  const s3 = await startS3rver();
  const driver = createS3Driver({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    pathStyle: true,
    folder: '',
  });
  return {
    name: 'S3',
    md5Etags: true,
    partEtag: md5,
    sendPart: async (key, uploadId, partNumber, bytes) => {
      const url = await driver.presignPart(key, uploadId, partNumber, { size: bytes.length, expiresInSeconds: 600, baseUrl: '' });
      const res = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
      if (res.status !== 200) throw new Error(`part PUT answered ${res.status}: ${await res.text()}`);
      return (res.headers.get('etag') ?? '').replace(/"/g, '');
    },
    stagedFiles: () => listFiles(join(s3.directory, s3.bucket, '._S3rver_uploads')),
    driver: createS3Driver({
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      pathStyle: true,
      folder: '',
    }),
    storedFiles: () => listFiles(join(s3.directory, s3.bucket)).filter((file) => file.endsWith('._S3rver_object')),
    stop: () => s3.stop(),
  };
}

/** The remote driver over a file system in memory: with a server-side copy (as WebDAV has) and without (SFTP, FTP). */
function memorySubject(kind: 'WEBDAV' | 'SFTP') {
  return () => {
    const fs = memoryRemoteFileSystem({ copy: kind === 'WEBDAV' });
    return remoteSubject(kind, fs, () => fs.files());
  };
}

// A protocol's real server joins here as one more row: `['SFTP (sshd)', async () => remoteSubject('SFTP', …)]`.
describe.each([
  ['LOCAL', localSubject],
  ['S3 (s3rver)', s3Subject],
  ['WEBDAV (in memory)', memorySubject('WEBDAV')],
  ['SFTP (in memory)', memorySubject('SFTP')],
])('%s driver', (_name, make) => {
  /** What `head` answers after a put of `bytes`: the MD5 where the storage keeps it, else whatever put answered. */
  const expectedHead = (bytes: Buffer, put: { etag: string }) => ({ size: bytes.length, etag: subject.md5Etags ? md5(bytes) : put.etag });
  let subject: Subject;
  let driver: StorageDriver;
  beforeAll(async () => {
    subject = await make();
    driver = subject.driver;
  });
  afterAll(() => subject.stop());

  it('stores a stream and reads it back whole, with size and MD5 ETag', async () => {
    const bytes = randomBytes(100_000);
    const head = await driver.put('docs/a file ü.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
    expect(head).toEqual(expectedHead(bytes, head));
    expect(head.etag).toMatch(/\S/);
    expect(await driver.head('docs/a file ü.bin')).toEqual(expectedHead(bytes, head));
    expect(sha256(await readAll(await driver.get('docs/a file ü.bin')))).toBe(sha256(bytes));
  });

  it('stores an empty object', async () => {
    const head = await driver.put('empty.txt', Readable.from([]), { contentType: 'text/plain' });
    expect(head).toEqual(expectedHead(Buffer.alloc(0), head));
    expect((await driver.head('empty.txt'))?.size).toBe(0);
  });

  it('reads exact byte ranges', async () => {
    const bytes = randomBytes(5000);
    await driver.put('range.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
    expect(await readAll(await driver.get('range.bin', { start: 10, end: 99 }))).toEqual(bytes.subarray(10, 100));
    expect(await readAll(await driver.get('range.bin', { start: 4999, end: 4999 }))).toEqual(bytes.subarray(4999));
  });

  it('streams an object larger than one S3 part (multipart under the hood) byte-identical', async () => {
    const bytes = randomBytes(2 * S3_PART_SIZE + 12345);
    const chunks = Readable.from((function* () {
      for (let at = 0; at < bytes.length; at += 1 << 20) yield bytes.subarray(at, at + (1 << 20));
    })());
    const head = await driver.put('big/blob.bin', chunks, { contentType: 'application/octet-stream' });
    expect(head.size).toBe(bytes.length);
    expect((await driver.head('big/blob.bin'))?.size).toBe(bytes.length);
    expect(sha256(await readAll(await driver.get('big/blob.bin')))).toBe(sha256(bytes));
  });

  it.each([
    ['a small body', 100_000],
    ['a body past the first part', S3_PART_SIZE + 100_000],
  ])('leaves nothing behind when %s fails mid-stream', async (_what, size) => {
    const before = subject.storedFiles().length;
    await expect(driver.put('broken/upload.bin', failingAfter(randomBytes(size)), { contentType: 'application/octet-stream' })).rejects.toThrow(
      'client went away',
    );
    expect(await driver.head('broken/upload.bin')).toBeUndefined();
    expect(subject.storedFiles().length).toBe(before);
  });

  // A copy aborted while its part was being set up hands on a body that failed already, or fails at the next tick.
  it.each([
    ['before the call', (body: PassThrough) => body.destroy(new Error('copy aborted'))],
    ['at the next tick', (body: PassThrough) => process.nextTick(() => body.destroy(new Error('copy aborted')))],
  ])('refuses at once a part whose body failed %s, and stores nothing', async (_when, fail) => {
    const key = 'broken/part.bin';
    const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
    // Listened to, as a copy's pipeline does: a failure nobody listens to would end the process.
    const body = new PassThrough().on('error', () => undefined);
    fail(body);
    await expect(driver.uploadPart(key, uploadId, 1, body, { size: 1000 })).rejects.toThrow('copy aborted');
    expect(await driver.listParts(key, uploadId)).toEqual([]);
    await driver.abortMultipart(key, uploadId);
  }, 20_000);

  it('says not found for missing objects: head undefined, get throws before any byte', async () => {
    expect(await driver.head('missing/nothing.bin')).toBeUndefined();
    await expect(driver.get('missing/nothing.bin')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('deletes, and deleting a missing object is fine', async () => {
    await driver.put('to-delete/x.txt', Readable.from([Buffer.from('bye')]), { contentType: 'text/plain' });
    await driver.delete('to-delete/x.txt');
    expect(await driver.head('to-delete/x.txt')).toBeUndefined();
    await expect(driver.delete('to-delete/x.txt')).resolves.toBeUndefined();
  });

  it('copies within the storage', async () => {
    const bytes = randomBytes(3000);
    await driver.put('copy/from.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
    await driver.copy('copy/from.bin', 'copy/sub/to.bin');
    expect(await readAll(await driver.get('copy/sub/to.bin'))).toEqual(bytes);
    const copied = await driver.head('copy/sub/to.bin');
    expect(copied).toEqual(expectedHead(bytes, { etag: copied?.etag ?? '' }));
    await expect(driver.copy('copy/none.bin', 'copy/x.bin')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it.each(['../escape.txt', 'a/../../escape.txt', '/etc/passwd', 'a//b', 'a/./b', '.staging/x', 'a/.meta', 'a\\..\\b', '', 'nul\u0000byte'])(
    'refuses the key %j everywhere',
    async (key) => {
      await expect(driver.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' })).rejects.toBeInstanceOf(UnsafeKeyError);
      await expect(driver.get(key)).rejects.toBeInstanceOf(UnsafeKeyError);
      await expect(driver.head(key)).rejects.toBeInstanceOf(UnsafeKeyError);
      await expect(driver.delete(key)).rejects.toBeInstanceOf(UnsafeKeyError);
      await expect(driver.presignPut(key, { contentType: 'x/y', size: 1, expiresInSeconds: 60, baseUrl: 'http://h' })).rejects.toBeInstanceOf(
        UnsafeKeyError,
      );
    },
  );

  it('checks access', async () => {
    await expect(driver.checkAccess()).resolves.toBeUndefined();
  });

  it('presigns a PUT and a GET with disposition and filename', async () => {
    const put = await driver.presignPut('pre/up.bin', { contentType: 'application/pdf', size: 10, expiresInSeconds: 600, baseUrl: 'http://app.test' });
    const get = await driver.presignGet('pre/up.bin', {
      expiresInSeconds: 600,
      baseUrl: 'http://app.test',
      disposition: 'attachment',
      filename: 'résumé 1.pdf',
      contentType: 'application/pdf',
    });
    if (subject.name === 'S3') {
      const bytes = randomBytes(10);
      const res = await fetch(put, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/pdf' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe(`"${md5(bytes)}"`);
      const got = await fetch(get, { headers: { range: 'bytes=2-5' } });
      expect(got.status).toBe(206);
      expect(got.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ 1.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%201.pdf`);
      expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes.subarray(2, 6));
    } else {
      for (const [url, method] of [[put, 'PUT'], [get, 'GET']] as const) {
        const parsed = new URL(url);
        expect(parsed.origin).toBe('http://app.test');
        expect(parsed.pathname).toBe('/api/local-storage/cfg-1/pre/up.bin');
        expect(verifyLocalUrl(secrets, now(), method, 'cfg-1', 'pre/up.bin', parsed.searchParams)).toMatchObject({ ok: true });
      }
    }
  });

  describe('multipart', () => {
    const MiB = 1024 * 1024;
    const bytes = randomBytes(10 * MiB + 12_345);
    const parts = [bytes.subarray(0, 5 * MiB), bytes.subarray(5 * MiB, 10 * MiB), bytes.subarray(10 * MiB)];

    it('takes parts in any order, lists them, joins them byte-identical and leaves no staging behind', async () => {
      const key = 'multi/part ü.bin';
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      expect(uploadId).toMatch(/\S{8,}/);
      expect(await driver.listParts(key, uploadId)).toEqual([]);
      const etags: string[] = [];
      for (const index of [2, 0, 1]) etags[index] = await subject.sendPart(key, uploadId, index + 1, parts[index] as Buffer);
      expect(etags).toEqual(parts.map((part) => subject.partEtag(part)));
      expect(await driver.listParts(key, uploadId)).toEqual(
        parts.map((part, index) => ({ partNumber: index + 1, size: part.length, etag: subject.partEtag(part) })),
      );
      // A part sent again replaces the earlier one.
      const wrong = randomBytes(5 * MiB);
      await subject.sendPart(key, uploadId, 2, wrong);
      expect((await driver.listParts(key, uploadId))[1]).toEqual({ partNumber: 2, size: wrong.length, etag: subject.partEtag(wrong) });
      await subject.sendPart(key, uploadId, 2, parts[1] as Buffer);

      const etag = await driver.completeMultipart(
        key,
        uploadId,
        etags.map((value, index) => ({ partNumber: index + 1, etag: `"${value}"` })),
      );
      expect(etag).toMatch(/^[0-9a-f]{32}(-3)?$/);
      expect((await driver.head(key))?.size).toBe(bytes.length);
      expect(sha256(await readAll(await driver.get(key)))).toBe(sha256(bytes));
      expect(subject.stagedFiles()).toEqual([]);
      await expect(driver.listParts(key, uploadId)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      await driver.delete(key);
    });

    it('refuses a part list with a wrong ETag, a missing part or a part out of order, and keeps the upload', async () => {
      const key = 'multi/checked.bin';
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      const [first, second, third] = await Promise.all(parts.map((part, index) => subject.sendPart(key, uploadId, index + 1, part)));
      const list = [
        { partNumber: 1, etag: first ?? '' },
        { partNumber: 2, etag: second ?? '' },
        { partNumber: 3, etag: third ?? '' },
      ];
      await expect(driver.completeMultipart(key, uploadId, [list[0]!, { partNumber: 2, etag: subject.partEtag(Buffer.from('other')) }, list[2]!])).rejects.toMatchObject({
        name: 'InvalidPartError',
        problem: 'etag_mismatch',
      });
      await expect(driver.completeMultipart(key, uploadId, [list[0]!, list[2]!, { partNumber: 4, etag: first ?? '' }])).rejects.toBeInstanceOf(
        InvalidPartError,
      );
      await expect(driver.completeMultipart(key, uploadId, [list[1]!, list[0]!, list[2]!])).rejects.toMatchObject({ problem: 'order' });
      expect(await driver.head(key)).toBeUndefined();
      expect(await driver.listParts(key, uploadId)).toHaveLength(3);
      await driver.completeMultipart(key, uploadId, list);
      expect(sha256(await readAll(await driver.get(key)))).toBe(sha256(bytes));
      await driver.delete(key);
    });

    it('refuses a part under 5 MiB that is not the last', async () => {
      const key = 'multi/small.bin';
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      const small = randomBytes(1024);
      const last = randomBytes(2048);
      const etags = [await subject.sendPart(key, uploadId, 1, small), await subject.sendPart(key, uploadId, 2, last)];
      await expect(
        driver.completeMultipart(key, uploadId, etags.map((etag, index) => ({ partNumber: index + 1, etag }))),
      ).rejects.toMatchObject({ name: 'InvalidPartError', problem: 'too_small' });
      // One small part alone is the last part: fine.
      const single = await driver.initMultipart('multi/single.bin', { contentType: 'text/plain' });
      const etag = await subject.sendPart('multi/single.bin', single, 1, small);
      await driver.completeMultipart('multi/single.bin', single, [{ partNumber: 1, etag }]);
      expect(await readAll(await driver.get('multi/single.bin'))).toEqual(small);
      await driver.abortMultipart(key, uploadId);
      await driver.delete('multi/single.bin');
    });

    it('aborts: every stored part is gone, the upload is unknown, nothing is left in storage', async () => {
      const before = subject.storedFiles().length;
      const key = 'multi/aborted.bin';
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      await subject.sendPart(key, uploadId, 1, parts[0] as Buffer);
      await subject.sendPart(key, uploadId, 3, parts[2] as Buffer);
      expect(subject.stagedFiles().length).toBeGreaterThan(0);
      await driver.abortMultipart(key, uploadId);
      expect(subject.stagedFiles()).toEqual([]);
      expect(subject.storedFiles().length).toBe(before);
      expect(await driver.head(key)).toBeUndefined();
      await expect(driver.listParts(key, uploadId)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      // A part arriving after the abort does not bring the upload back.
      await expect(subject.sendPart(key, uploadId, 2, Buffer.from('late'))).rejects.toThrow();
      expect(subject.stagedFiles()).toEqual([]);
      // Aborting again, or an upload that never was, is fine.
      await expect(driver.abortMultipart(key, uploadId)).resolves.toBeUndefined();
      await expect(driver.completeMultipart(key, uploadId, [{ partNumber: 1, etag: subject.partEtag(parts[0] as Buffer) }])).rejects.toBeInstanceOf(
        MultipartUploadNotFoundError,
      );
    });

    it('knows an upload only under its own key', async () => {
      const uploadId = await driver.initMultipart('multi/mine.bin', { contentType: 'application/octet-stream' });
      await expect(driver.listParts('multi/other.bin', uploadId)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      await driver.abortMultipart('multi/other.bin', uploadId);
      expect(await driver.listParts('multi/mine.bin', uploadId)).toEqual([]);
      await driver.abortMultipart('multi/mine.bin', uploadId);
    });
  });

  it('gives S3 objects their address and LOCAL ones none', () => {
    const url = driver.objectUrl('a b/c.txt');
    if (subject.name === 'S3') expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/clipstash-test\/a%20b\/c\.txt$/);
    else expect(url).toBeNull();
  });
});

/** A LOCAL driver on a folder of its own with one multipart upload of `key` begun; the folder goes afterwards. */
async function withLocalUpload(key: string, test: (driver: StorageDriver, uploadId: string, root: string) => Promise<void>) {
  const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
  try {
    const driver = createLocalDriver({ root, configId: 'c', secrets, now });
    await test(driver, await driver.initMultipart(key, { contentType: 'application/octet-stream' }), root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('LOCAL driver specifics', () => {
  it('signs part URLs that verify as part grants only, limited to the given size', async () => {
    const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
    try {
      const driver = createLocalDriver({ root, configId: 'c', secrets, now });
      const uploadId = await driver.initMultipart('a/b.bin', { contentType: 'application/octet-stream' });
      const url = new URL(await driver.presignPart('a/b.bin', uploadId, 7, { size: 1234, expiresInSeconds: 60, baseUrl: 'http://app.test' }));
      expect(url.pathname).toBe('/api/local-storage/c/a/b.bin');
      expect(verifyLocalUrl(secrets, now(), 'PUT', 'c', 'a/b.bin', url.searchParams)).toEqual({
        ok: true,
        grant: { method: 'PUT', configId: 'c', key: 'a/b.bin', expires: expect.any(Number), size: 1234, part: { uploadId, partNumber: 7 } },
      });
      // Without its upload parameters (or with others) the signature no longer fits: a part URL never writes the object.
      const bare = new URLSearchParams(url.searchParams);
      bare.delete('uploadId');
      bare.delete('partNumber');
      expect(verifyLocalUrl(secrets, now(), 'PUT', 'c', 'a/b.bin', bare)).toEqual({ ok: false, problem: 'invalid' });
      const moved = new URLSearchParams(url.searchParams);
      moved.set('partNumber', '8');
      expect(verifyLocalUrl(secrets, now(), 'PUT', 'c', 'a/b.bin', moved)).toEqual({ ok: false, problem: 'invalid' });
      await expect(driver.presignPart('a/b.bin', '../../etc', 1, { size: 1, expiresInSeconds: 60, baseUrl: '' })).rejects.toBeInstanceOf(
        MultipartUploadNotFoundError,
      );
      await expect(driver.listParts('a/b.bin', '../../../x')).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps one copy of a part sent twice at once', () =>
    withLocalUpload('x.bin', async (driver, uploadId, root) => {
      const one = randomBytes(300_000);
      const two = randomBytes(300_000);
      await Promise.all([driver.uploadPart('x.bin', uploadId, 1, Readable.from([one])), driver.uploadPart('x.bin', uploadId, 1, Readable.from([two]))]);
      const listed = await driver.listParts('x.bin', uploadId);
      expect(listed).toHaveLength(1);
      expect([stagedPartEtag(one), stagedPartEtag(two)]).toContain(listed[0]?.etag);
      expect(listFiles(join(root, '.staging', 'multipart', uploadId)).filter((file) => file.endsWith('.part'))).toHaveLength(1);
    }));

  it('drops a part whose body fails after several MiB, keeping the copy stored before it', () =>
    withLocalUpload('x.bin', async (driver, uploadId, root) => {
      const stored = randomBytes(300_000);
      await driver.uploadPart('x.bin', uploadId, 1, Readable.from([stored]));
      // More than the new file's write buffer: some of it is on disk when the body fails.
      await expect(driver.uploadPart('x.bin', uploadId, 1, failingAfter(randomBytes(3 * 1024 * 1024)))).rejects.toThrow('client went away');
      expect(await driver.listParts('x.bin', uploadId)).toEqual([{ partNumber: 1, size: stored.length, etag: stagedPartEtag(stored) }]);
      expect(readdirSync(join(root, '.staging', 'multipart', uploadId)).sort()).toEqual([`1.${stagedPartEtag(stored)}.part`, 'upload.json']);
    }));

  it('joins a part staged under its MD5 by an earlier version, checking it by that hash', () =>
    withLocalUpload('old.bin', async (driver, uploadId, root) => {
      const [first, second] = [randomBytes(5 * 1024 * 1024), randomBytes(1000)];
      const dir = join(root, '.staging', 'multipart', uploadId);
      writeFileSync(join(dir, `1.${md5(first)}.part`), first);
      const { etag } = await driver.uploadPart('old.bin', uploadId, 2, Readable.from([second]));
      expect(await driver.listParts('old.bin', uploadId)).toEqual([
        { partNumber: 1, size: first.length, etag: md5(first) },
        { partNumber: 2, size: second.length, etag: stagedPartEtag(second) },
      ]);
      const parts = [
        { partNumber: 1, etag: md5(first) },
        { partNumber: 2, etag },
      ];
      // Changed on disk since: the MD5 in its name no longer matches, and the upload stays to be completed again.
      writeFileSync(join(dir, `1.${md5(first)}.part`), Buffer.concat([first.subarray(1), Buffer.from('!')]));
      await expect(driver.completeMultipart('old.bin', uploadId, parts)).rejects.toMatchObject({ problem: 'etag_mismatch' });
      writeFileSync(join(dir, `1.${md5(first)}.part`), first);
      await driver.completeMultipart('old.bin', uploadId, parts);
      expect(sha256(await readAll(await driver.get('old.bin')))).toBe(sha256(Buffer.concat([first, second])));
    }));

  it('tells a file’s size without hashing one put there by hand, and nothing for a folder or a missing key', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
    try {
      const driver = createLocalDriver({ root, configId: 'c', secrets, now });
      mkdirSync(join(root, 'manual', 'inner'), { recursive: true });
      writeFileSync(join(root, 'manual', 'file.bin'), randomBytes(7_000));
      expect(await driver.sizeOf('manual/file.bin')).toBe(7_000);
      expect(listFiles(root).filter((file) => file.includes('.meta'))).toEqual([]);
      expect(await driver.sizeOf('manual/inner')).toBeUndefined();
      expect(await driver.sizeOf('manual/none.bin')).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('hashes a file that arrived without metadata (put there by hand) once, then remembers', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
    try {
      const driver = createLocalDriver({ root, configId: 'c', secrets, now });
      const bytes = randomBytes(70_000);
      mkdirSync(join(root, 'manual'), { recursive: true });
      writeFileSync(join(root, 'manual', 'file.bin'), bytes);
      writeFileSync(join(root, 'manual', 'other.bin'), bytes);
      const etags = async () => Object.fromEntries((await driver.list('manual')).objects.map((object) => [object.key, object.etag]));
      // A listing hashes nothing: the ETag is unknown until asked for, then listed from the metadata folder.
      expect(await etags()).toEqual({ 'manual/file.bin': null, 'manual/other.bin': null });
      expect(await driver.head('manual/file.bin')).toEqual({ size: bytes.length, etag: md5(bytes) });
      expect(listFiles(join(root, '.meta'))).toEqual([join(root, '.meta', 'manual', 'file.bin.json')]);
      expect(await etags()).toEqual({ 'manual/file.bin': md5(bytes), 'manual/other.bin': null });
      await driver.delete('manual/other.bin');
      // A changed file (other size) is hashed again.
      writeFileSync(join(root, 'manual', 'file.bin'), bytes.subarray(0, 10));
      expect(await driver.head('manual/file.bin')).toEqual({ size: 10, etag: md5(bytes.subarray(0, 10)) });
      await driver.delete('manual/file.bin');
      expect(listFiles(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('keeps the metadata of a name too long for `<name>.json` apart, through put, copy, move, folders and delete', async () => {
    const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
    try {
      const driver = createLocalDriver({ root, configId: 'c', secrets, now });
      const long = `${'l'.repeat(251)}.bin`;
      const bytes = randomBytes(5_000);
      expect(await driver.put(`d/${long}`, Readable.from([bytes]), { contentType: 'application/octet-stream' })).toEqual({ size: bytes.length, etag: md5(bytes) });
      const sidecar = join(root, '.meta', 'd', '.meta', `${sha256(Buffer.from(long))}.json`);
      expect(listFiles(join(root, '.meta'))).toEqual([sidecar]);
      expect(JSON.parse(readFileSync(sidecar, 'utf8'))).toEqual({ size: bytes.length, etag: md5(bytes) });
      // Read from the sidecar, not hashed again: a sidecar that says otherwise (same size) is believed.
      writeFileSync(sidecar, JSON.stringify({ size: bytes.length, etag: 'remembered' }));
      expect(await driver.head(`d/${long}`)).toEqual({ size: bytes.length, etag: 'remembered' });
      expect((await driver.list('d')).objects.map((object) => object.etag)).toEqual(['remembered']);
      writeFileSync(sidecar, JSON.stringify({ size: bytes.length, etag: md5(bytes) }));

      await driver.copy(`d/${long}`, `e/${long}`);
      await driver.move(`d/${long}`, `d/short.bin`);
      expect(await driver.head(`e/${long}`)).toEqual({ size: bytes.length, etag: md5(bytes) });
      expect(listFiles(join(root, '.meta')).sort()).toEqual([join(root, '.meta', 'd', 'short.bin.json'), join(root, '.meta', 'e', '.meta', `${sha256(Buffer.from(long))}.json`)].sort());
      await driver.removeFolder('e');
      await driver.delete('d/short.bin');
      expect(listFiles(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the s3rver fixture', () => {
  it('lists multipart uploads in progress, as S3 does (s3rver alone does not)', async () => {
    const s3 = await startS3rver();
    try {
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: s3.region,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
      const driver = createS3Driver({ ...s3, pathStyle: true, folder: '' });
      const uploads = async () =>
        ((await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }))).Uploads ?? []).map((upload) => [upload.Key, upload.UploadId]);
      expect(await uploads()).toEqual([]);
      const uploadId = await driver.initMultipart('a/b c.bin', { contentType: 'application/octet-stream' });
      expect(await uploads()).toEqual([['a/b c.bin', uploadId]]);
      expect(await s3.pendingUploads()).toEqual([uploadId]);
      await driver.abortMultipart('a/b c.bin', uploadId);
      expect(await uploads()).toEqual([]);
    } finally {
      await s3.stop();
    }
  });

  it('stops even with a request left open (a client that never sent the rest of its body)', async () => {
    const s3 = await startS3rver();
    const socket = connect(Number(new URL(s3.endpoint).port), '127.0.0.1');
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`PUT /${s3.bucket}/half.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n0123456789`);
      // A request sent after it is answered: s3rver has read the first one's head by then, so it counts as open.
      await (await fetch(`${s3.endpoint}/${s3.bucket}`)).arrayBuffer();
      const outcome = await Promise.race([s3.stop().then(() => 'stopped'), new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting'))]);
      expect(outcome).toBe('stopped');
    } finally {
      socket.destroy();
    }
  });

  it('lets an abort wait for a part being written (s3rver would open the part in the folder the abort removed)', async () => {
    const s3 = await startS3rver();
    try {
      const driver = createS3Driver({ ...s3, pathStyle: true, folder: '' });
      const uploadId = await driver.initMultipart('slow/part.bin', { contentType: 'application/octet-stream' });
      const url = new URL(await driver.presignPart('slow/part.bin', uploadId, 1, { size: 64 * 1024, expiresInSeconds: 60, baseUrl: s3.endpoint }));
      const body = randomBytes(64 * 1024);
      const part = request(url, { method: 'PUT', headers: { 'content-length': body.length } });
      const answered = new Promise<number | undefined>((resolve, reject) => {
        part.on('response', (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        part.on('error', reject);
      });
      part.write(body.subarray(0, 1024));
      await vi.waitFor(() => expect(readdirSync(join(s3.directory, s3.bucket, '._S3rver_uploads', uploadId))).toContain('1'));
      const events: string[] = [];
      const aborted = driver.abortMultipart('slow/part.bin', uploadId).then(() => events.push('aborted'));
      // The abort has reached s3rver and waits for the part: finishing the part now is what lets it go on.
      await vi.waitFor(() => expect(s3.abortsWaiting()).toEqual([uploadId]));
      events.push('part sent');
      part.end(body.subarray(1024));
      expect(await answered).toBe(200);
      await aborted;
      expect(events).toEqual(['part sent', 'aborted']);
      expect(await s3.pendingUploads()).toEqual([]);
    } finally {
      await s3.stop();
    }
  });
});

describe('S3 driver abort', () => {
  it('aborts once more a moment later, which frees a part stored while the upload was being aborted', async () => {
    const s3 = await startS3rver();
    try {
      const driver = createS3Driver({ ...s3, pathStyle: true, folder: '', abortSweepMs: 200 });
      const uploadId = await driver.initMultipart('late/part.bin', { contentType: 'application/octet-stream' });
      const uploadDir = join(s3.directory, s3.bucket, '._S3rver_uploads', uploadId);
      const upload = readdirSync(uploadDir).map((name) => [name, readFileSync(join(uploadDir, name))] as const);
      await driver.abortMultipart('late/part.bin', uploadId);
      expect(await s3.pendingUploads()).toEqual([]);
      // What s3rver does with a part whose request it was reading when the abort came: it makes the upload's folder
      // again and stores the part there.
      mkdirSync(uploadDir);
      for (const [name, bytes] of upload) writeFileSync(join(uploadDir, name), bytes);
      writeFileSync(join(uploadDir, '1'), 'late part');
      expect(await s3.pendingUploads()).toEqual([uploadId]);
      await vi.waitFor(async () => expect(await s3.pendingUploads()).toEqual([]), { timeout: 3_000 });
    } finally {
      await s3.stop();
    }
  });
});

describe('S3 driver part requests', () => {
  it('ends a part request at once when its body fails before the storage has answered', async () => {
    // A storage that reads the request's head and never answers, nor says "100 Continue" to a request that asks.
    const heads: IncomingHttpHeaders[] = [];
    const closed: Promise<void>[] = [];
    const hold = (incoming: IncomingMessage) => {
      heads.push(incoming.headers);
      closed.push(new Promise((resolve) => incoming.once('close', resolve)));
    };
    const storage = createServer(hold).on('checkContinue', hold);
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = storage.address() as AddressInfo;
      const driver = createS3Driver({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'b', accessKeyId: 'k', secretAccessKey: 's', pathStyle: true, folder: '' });
      const body = new PassThrough();
      body.write(randomBytes(1024));
      const part = driver.uploadPart('a.bin', 'upload-1', 1, body, { size: 5 * 1024 * 1024 });
      await vi.waitFor(() => expect(heads).toHaveLength(1));
      body.destroy(new Error('copy aborted'));
      await expect(part).rejects.toThrow('copy aborted');
      await closed[0]; // the request's connection went with it
    } finally {
      storage.closeAllConnections();
      await new Promise((resolve) => storage.close(resolve));
    }
  }, 20_000);
});
