import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver } from '../../tests/fixtures/s3rver';
import { createSecretBox } from '../security/secret-box';
import { ObjectNotFoundError, UnsafeKeyError, type StorageDriver } from './driver';
import { createLocalDriver } from './local';
import { verifyLocalUrl } from './local-urls';
import { createS3Driver, S3_PART_SIZE } from './s3';

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

interface Subject {
  name: 'LOCAL' | 'S3';
  driver: StorageDriver;
  /** Whatever the storage holds, as files on disk (LOCAL's folder, s3rver's folder). */
  storedFiles(): string[];
  stop(): Promise<void>;
}

const secrets = createSecretBox(randomBytes(32));
const now = () => new Date('2030-01-15T12:00:00Z');

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

async function localSubject(): Promise<Subject> {
  const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
  return {
    name: 'LOCAL',
    driver: createLocalDriver({ root, configId: 'cfg-1', secrets, now }),
    storedFiles: () => listFiles(root),
    stop: async () => rmSync(root, { recursive: true, force: true }),
  };
}

async function s3Subject(): Promise<Subject> {
  const s3 = await startS3rver();
  return {
    name: 'S3',
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

describe.each([
  ['LOCAL', localSubject],
  ['S3 (s3rver)', s3Subject],
])('%s driver', (_name, make) => {
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
    expect(head).toEqual({ size: bytes.length, etag: md5(bytes) });
    expect(await driver.head('docs/a file ü.bin')).toEqual({ size: bytes.length, etag: md5(bytes) });
    expect(sha256(await readAll(await driver.get('docs/a file ü.bin')))).toBe(sha256(bytes));
  });

  it('stores an empty object', async () => {
    expect(await driver.put('empty.txt', Readable.from([]), { contentType: 'text/plain' })).toEqual({ size: 0, etag: md5(Buffer.alloc(0)) });
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
    expect(await driver.head('copy/sub/to.bin')).toEqual({ size: 3000, etag: md5(bytes) });
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

  it('gives S3 objects their address and LOCAL ones none', () => {
    const url = driver.objectUrl('a b/c.txt');
    if (subject.name === 'S3') expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/clipstash-test\/a%20b\/c\.txt$/);
    else expect(url).toBeNull();
  });
});

describe('LOCAL driver specifics', () => {
  it('hashes a file that arrived without metadata (put there by hand) once, then remembers', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const root = mkdtempSync(join(tmpdir(), 'clipstash-local-driver-'));
    try {
      const driver = createLocalDriver({ root, configId: 'c', secrets, now });
      const bytes = randomBytes(70_000);
      mkdirSync(join(root, 'manual'), { recursive: true });
      writeFileSync(join(root, 'manual', 'file.bin'), bytes);
      expect(await driver.head('manual/file.bin')).toEqual({ size: bytes.length, etag: md5(bytes) });
      expect(listFiles(join(root, '.meta'))).toEqual([join(root, '.meta', 'manual', 'file.bin.json')]);
      // A changed file (other size) is hashed again.
      writeFileSync(join(root, 'manual', 'file.bin'), bytes.subarray(0, 10));
      expect(await driver.head('manual/file.bin')).toEqual({ size: 10, etag: md5(bytes.subarray(0, 10)) });
      await driver.delete('manual/file.bin');
      expect(listFiles(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
