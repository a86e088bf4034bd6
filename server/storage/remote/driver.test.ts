import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractNow, contractSecrets, listFiles } from '../../../tests/fixtures/driver-subject';
import { stagedPartEtag } from '../../../tests/fixtures/files';
import { memoryRemoteFileSystem, type MemoryRemoteFileSystem } from '../../../tests/fixtures/memory-remote-fs';
import { MIN_PART_BYTES } from '../../../contract/parts';
import { MultipartUploadNotFoundError, UnsafeKeyError } from '../driver';
import { verifyLocalUrl } from '../local-urls';
import { initMultipart, uploadPart } from '../local/multipart';
import { remoteContextOf } from './context';
import { createRemoteDriver, type RemoteStorageDriver } from './driver';
import { createPartRelays, LIVE_PART_MOST_BYTES } from './part-relay';
import type { RemoteEntry } from './remote-fs';
import { log } from '../../observability/log';

const entry = (name: string, kind: RemoteEntry['kind'] = 'file'): RemoteEntry => ({ name, kind, size: 1, modified: null, etag: null });

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('remote driver', () => {
  let fs: MemoryRemoteFileSystem;
  let driver: RemoteStorageDriver;
  let stagingRoot: string;
  const make = (folder = 'base/inner') =>
    createRemoteDriver({ type: 'SFTP', fs, configId: 'cfg-r', folder, stagingRoot, secrets: contractSecrets, now: contractNow });
  beforeEach(async () => {
    fs = memoryRemoteFileSystem();
    stagingRoot = mkdtempSync(join(tmpdir(), 'clipstash-remote-driver-'));
    driver = make();
  });
  afterEach(() => rmSync(stagingRoot, { recursive: true, force: true }));

  it('keeps every object below the base folder, making each missing folder on the way', async () => {
    await driver.put('a/b/c.txt', Readable.from([Buffer.from('c')]), { contentType: 'text/plain' });
    await driver.makeFolder('empty/one');
    expect(fs.paths()).toEqual(['/base', '/base/inner', '/base/inner/a', '/base/inner/a/b', '/base/inner/a/b/c.txt', '/base/inner/empty', '/base/inner/empty/one']);
    expect(await driver.folderExists('empty/one')).toBe(true);
    expect(await driver.folderExists('a/b/c.txt')).toBe(false);
    expect((await driver.listTree('')).folders.sort()).toEqual(['a', 'a/b', 'empty', 'empty/one']);
    await expect(driver.removeFolder('')).rejects.toBeInstanceOf(UnsafeKeyError);
  });

  it('writes two files into one new folder at once, on a server whose mkdir refuses an existing folder', async () => {
    const mkdir = fs.mkdir.bind(fs);
    const made = new Set<string>();
    // Both writes reach the new folder's mkdir having found it missing; the second is refused, as some servers do.
    let arrived = 0;
    let release = () => {};
    const bothThere = new Promise<void>((resolve) => (release = resolve));
    fs.mkdir = async (path) => {
      if (path === '/base/inner/new' && ++arrived === 2) release();
      if (path === '/base/inner/new') await Promise.race([bothThere, new Promise((resolve) => setTimeout(resolve, 1000))]);
      if (made.has(path)) throw new Error(`${path} exists`);
      made.add(path);
      await mkdir(path);
    };
    await Promise.all(['x', 'y'].map((name) => driver.put(`new/${name}.txt`, Readable.from([Buffer.from(name)]), { contentType: 'text/plain' })));
    expect((await driver.list('new')).objects.map((object) => object.key).sort()).toEqual(['new/x.txt', 'new/y.txt']);
    expect(arrived).toBe(2);
  });

  it('leaves out and logs the names a hostile server lists, and no key built from them leaves the base', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    try {
      await driver.makeFolder('docs');
      await driver.put('docs/fine.txt', Readable.from([Buffer.from('ok')]), { contentType: 'text/plain' });
      fs.listed.set('/base/inner/docs', [
        entry('..', 'folder'),
        entry('.'),
        entry(''),
        entry('a/b'),
        entry('/etc/passwd'),
        entry('..\\..\\x'),
        entry('bell\u0007'),
        entry('.staging', 'folder'),
        entry('.clipstash-partial-123'),
      ]);
      expect(await driver.list('docs')).toEqual({
        folders: [],
        objects: [{ key: 'docs/fine.txt', size: 2, etag: expect.stringMatching(/^[0-9a-f]{32}$/), modified: expect.any(Date) }],
      });
      expect((await driver.listTree('')).objects.map((object) => object.key)).toEqual(['docs/fine.txt']);
      const logged = warn.mock.calls.map((call) => String(call[0]));
      expect(logged).toHaveLength(16); // 8 unfit names, once per listing (the partial write is left out silently)
      expect(logged[0]).toBe('SFTP storage cfg-r: left out an entry named ".." in folder "docs"');
      expect(logged.join('\n')).toContain('"bell\\u0007"');
    } finally {
      warn.mockRestore();
    }
  });

  it('leaves nothing on the server when a body fails mid-stream, not even its partial name', async () => {
    await driver.put('keep.txt', Readable.from([Buffer.from('keep')]), { contentType: 'text/plain' });
    const before = fs.paths();
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(64 * 1024);
        // The partial file is on the server now, under its hidden name beside the target.
        expect(fs.files().some((path) => path.startsWith('/base/inner/.clipstash-partial-'))).toBe(true);
        expect((await driver.list('')).objects.map((object) => object.key)).toEqual(['keep.txt']);
        throw new Error('client went away');
      })(),
    );
    await expect(driver.put('broken.bin', failing, { contentType: 'application/octet-stream' })).rejects.toThrow('client went away');
    expect(fs.paths()).toEqual(before);
    expect(await driver.head('broken.bin')).toBeUndefined();
  });

  it('gives a stable ETag from size and time when the server has none, and a new one after a rewrite', async () => {
    const first = await driver.put('e.txt', Readable.from([Buffer.from('one')]), { contentType: 'text/plain' });
    expect(await driver.head('e.txt')).toEqual(first);
    expect(await driver.head('e.txt')).toEqual(first);
    const second = await driver.put('e.txt', Readable.from([Buffer.from('two')]), { contentType: 'text/plain' });
    expect(second.etag).not.toBe(first.etag);
  });

  it('answers the server’s own ETag when it has one, without quotes', async () => {
    await driver.put('w.txt', Readable.from([Buffer.from('w')]), { contentType: 'text/plain' });
    const stat = fs.stat.bind(fs);
    fs.stat = async (path) => {
      const found = await stat(path);
      return found && { ...found, etag: found.kind === 'file' ? 'W/"abc-123"' : null };
    };
    expect(await driver.head('w.txt')).toEqual({ size: 1, etag: 'abc-123' });
  });

  it('copies through this server where the protocol has no copy, and moves by rename', async () => {
    const bytes = randomBytes(2000);
    await driver.put('from.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
    await driver.copy('from.bin', 'deep/copy.bin');
    await driver.move('from.bin', 'other/moved.bin');
    expect(await readAll(await driver.get('deep/copy.bin'))).toEqual(bytes);
    expect(await readAll(await driver.get('other/moved.bin', { start: 10, end: 19 }))).toEqual(bytes.subarray(10, 20));
    expect(await driver.head('from.bin')).toBeUndefined();
  });

  it('refuses keys that name a write in progress', async () => {
    await expect(driver.put('.clipstash-partial-x', Readable.from([]), { contentType: 'text/plain' })).rejects.toBeInstanceOf(UnsafeKeyError);
    await expect(driver.head('a/.clipstash-partial-x/b')).rejects.toBeInstanceOf(UnsafeKeyError);
  });

  it('signs this server’s URLs for its config, as LOCAL does', async () => {
    const url = new URL(await driver.presignPut('up/a.bin', { contentType: 'x/y', size: 3, expiresInSeconds: 60, baseUrl: 'http://app.test' }));
    expect(url.pathname).toBe('/api/local-storage/cfg-r/up/a.bin');
    expect(verifyLocalUrl(contractSecrets, contractNow(), 'PUT', 'cfg-r', 'up/a.bin', url.searchParams)).toMatchObject({ ok: true });
    expect(driver.objectUrl('up/a.bin')).toBeNull();
  });

  it('keeps staged parts when the remote write fails, so that completing again succeeds', async () => {
    const uploadId = await driver.initMultipart('m/big.bin', { contentType: 'application/octet-stream' });
    const bytes = randomBytes(1000);
    const { etag } = await driver.uploadPart('m/big.bin', uploadId, 1, Readable.from([bytes]));
    const rename = fs.rename.bind(fs);
    fs.rename = async () => {
      throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
    };
    await expect(driver.completeMultipart('m/big.bin', uploadId, [{ partNumber: 1, etag }])).rejects.toThrow('connection lost');
    expect(fs.files()).toEqual([]);
    expect(listFiles(join(stagingRoot, '.staging')).length).toBeGreaterThan(0);
    fs.rename = rename;
    await driver.completeMultipart('m/big.bin', uploadId, [{ partNumber: 1, etag }]);
    expect(await readAll(await driver.get('m/big.bin'))).toEqual(bytes);
    expect(listFiles(join(stagingRoot, '.staging'))).toEqual([]);
  });

  it('checks access by listing the base folder, which must exist', async () => {
    await expect(driver.checkAccess()).rejects.toThrow('base folder');
    await driver.makeFolder('');
    await expect(driver.checkAccess()).resolves.toBeUndefined();
    await expect(make('').checkAccess()).resolves.toBeUndefined();
  });

  it('closes its file system', async () => {
    await driver.close();
    expect(fs.closed).toBe(true);
  });

  describe('relaying parts while they arrive', () => {
    const key = 'm/big.bin';
    const partials = () => fs.files().filter((path) => path.includes('.clipstash-partial-'));
    /** The bytes of the file being relayed, once it holds `length` of them. */
    const relayedBytes = async (length: number) =>
      vi.waitFor(
        async () => {
          const [partial] = partials();
          const bytes = partial ? await readAll(await fs.read(partial)) : Buffer.alloc(0);
          if (bytes.length !== length) throw new Error(`${bytes.length} of ${length} bytes relayed`);
          return bytes;
        },
        { timeout: 5000 },
      );
    /** Counts the file system's writes: one per file sent. */
    const countWrites = () => {
      const write = fs.write.bind(fs);
      const counted = { writes: 0 };
      fs.write = async (path, body) => {
        counted.writes += 1;
        await write(path, body);
      };
      return counted;
    };
    const upload = async (uploadId: string, partNumber: number, bytes: Buffer, to = key) => ({ partNumber, etag: (await driver.uploadPart(to, uploadId, partNumber, Readable.from([bytes]))).etag });
    const staged = () => listFiles(join(stagingRoot, '.staging'));
    // Vitest compares Buffers byte by byte as arrays (seconds for a part): their digests are compared instead.
    const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    /** A part that may come before others: the smallest size a part other than the last may have. */
    const full = (fill: string) => Buffer.alloc(MIN_PART_BYTES, fill);

    it('writes each part on in order as it arrives, so that completing only ends the file and renames it', async () => {
      const counted = countWrites();
      const bytes = [full('a'), full('b'), randomBytes(300)];
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      const third = await upload(uploadId, 3, bytes[2]!);
      const first = await upload(uploadId, 1, bytes[0]!);
      expect(digest(await relayedBytes(MIN_PART_BYTES))).toBe(digest(bytes[0]!));
      const second = await upload(uploadId, 2, bytes[1]!);
      // Part 3 arrived first and waited for part 2.
      expect(digest(await relayedBytes(2 * MIN_PART_BYTES + 300))).toBe(digest(Buffer.concat(bytes)));
      await driver.completeMultipart(key, uploadId, [first, second, third]);
      expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat(bytes)));
      expect(counted.writes).toBe(1);
      expect(partials()).toEqual([]);
      expect(staged()).toEqual([]);
    });

    /** Part 1 sent on, then stored again with other bytes; completing stores the new bytes. */
    const partChangedAfterItWasSent = async () => {
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      await upload(uploadId, 1, full('o'));
      await relayedBytes(MIN_PART_BYTES);
      const first = await upload(uploadId, 1, full('n'));
      // The relay stops at once, its file gone, rather than sending the rest of a file that cannot be used.
      await vi.waitFor(() => expect(partials()).toEqual([]));
      const second = await upload(uploadId, 2, Buffer.from('second'));
      await driver.completeMultipart(key, uploadId, [first, second]);
      expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat([full('n'), Buffer.from('second')])));
    };

    it('sends the whole file when a relayed part was stored again with other bytes', async () => {
      const counted = countWrites();
      await partChangedAfterItWasSent();
      expect(counted.writes).toBe(2);
      expect(partials()).toEqual([]);
    });

    it('sends the whole file when the completed parts skip a number', async () => {
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      const first = await upload(uploadId, 1, full('1'));
      await upload(uploadId, 2, full('2'));
      const third = await upload(uploadId, 3, Buffer.from('three'));
      await driver.completeMultipart(key, uploadId, [first, third]);
      expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat([full('1'), Buffer.from('three')])));
      expect(partials()).toEqual([]);
    });

    it('sends the whole file when the relay’s write failed, and leaves no partial file', async () => {
      const write = fs.write.bind(fs);
      let failing = true;
      fs.write = async (path, body) => {
        if (!failing) return write(path, body);
        failing = false;
        await write(path, Readable.from((async function* () { for await (const chunk of body) { yield chunk; throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' }); } })()));
      };
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      const first = await upload(uploadId, 1, full('f'));
      await vi.waitFor(() => expect(failing).toBe(false));
      const second = await upload(uploadId, 2, Buffer.from('second'));
      await vi.waitFor(() => expect(partials()).toEqual([]));
      await driver.completeMultipart(key, uploadId, [first, second]);
      expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat([full('f'), Buffer.from('second')])));
      expect(partials()).toEqual([]);
    });

    it('sees a failed relay whose write ended quietly, and leaves no partial file', async () => {
      const write = fs.write.bind(fs);
      fs.write = (path, body) => write(path, body).catch(() => undefined);
      await partChangedAfterItWasSent();
      expect(partials()).toEqual([]);
    });

    it('removes the relayed file on abort, with the staged parts', async () => {
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      await upload(uploadId, 1, Buffer.from('first'));
      await relayedBytes(5);
      await driver.abortMultipart(key, uploadId);
      expect(fs.files()).toEqual([]);
      expect(staged()).toEqual([]);
      await expect(driver.completeMultipart(key, uploadId, [{ partNumber: 1, etag: '0'.repeat(32) }])).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
    });

    it('relays two uploads at once; a third is sent whole when it completes', async () => {
      const counted = countWrites();
      const keys = ['m/a.bin', 'm/b.bin', 'm/c.bin'];
      const uploads = await Promise.all(keys.map((to) => driver.initMultipart(to, { contentType: 'application/octet-stream' })));
      const firsts = [];
      for (const [index, uploadId] of uploads.entries()) firsts.push(await upload(uploadId, 1, full(String(index)), keys[index]));
      // The first two relays hold their part 1 whole; a relay of the third would have had the same time.
      const firstBytes = async () => Promise.all(partials().map(async (partial) => (await readAll(await fs.read(partial))).subarray(0, 1).toString()));
      await vi.waitFor(async () => {
        expect(await Promise.all(partials().map(async (partial) => (await fs.stat(partial))?.size))).toEqual([MIN_PART_BYTES, MIN_PART_BYTES]);
      });
      expect((await firstBytes()).sort()).toEqual(['0', '1']);
      // The third completes while the two still hold their connections. By the time its part 2 is stored, a relay
      // of its own would have begun writing.
      for (const index of [2, 0, 1]) {
        const second = await upload(uploads[index]!, 2, Buffer.from(`of ${index}`), keys[index]);
        if (index === 2) expect(counted.writes).toBe(2);
        await driver.completeMultipart(keys[index]!, uploads[index]!, [firsts[index]!, second]);
      }
      for (const [index, to] of keys.entries()) expect(digest(await readAll(await driver.get(to)))).toBe(digest(Buffer.concat([full(String(index)), Buffer.from(`of ${index}`)])));
      expect(counted.writes).toBe(3);
      expect(partials()).toEqual([]);
    });

    it('lets an abort through at once, mid-part, on a server that takes no more bytes', async () => {
      let writing = false;
      // Takes the first chunk, then never asks for more.
      fs.write = async (_path, body) => {
        writing = true;
        await pipeline(body, new Writable({ highWaterMark: 1, write: () => undefined }));
      };
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      await upload(uploadId, 1, full('s'));
      await vi.waitFor(() => expect(writing).toBe(true));
      await driver.abortMultipart(key, uploadId);
      expect(staged()).toEqual([]);
    });

    it('does not relay an upload again once its relay was cancelled, nor after its storage closed', async () => {
      const context = remoteContextOf({ type: 'SFTP', fs, configId: 'cfg-r', folder: 'base/inner', stagingRoot, secrets: contractSecrets, now: contractNow });
      const relays = createPartRelays(context);
      const [cancelled, later] = [await initMultipart(context.staging, key, 'x/y'), await initMultipart(context.staging, key, 'x/y')];
      const part = await uploadPart(context.staging, key, cancelled, 1, Readable.from([full('c')]));
      relays.stored(key, cancelled, part);
      await relays.cancel(key, cancelled);
      // A part stored while the abort was under way.
      relays.stored(key, cancelled, part);
      expect(relays.take(cancelled)).toBeUndefined();
      await relays.close();
      relays.stored(key, later, await uploadPart(context.staging, key, later, 1, Readable.from([full('l')])));
      expect(relays.take(later)).toBeUndefined();
      expect(partials()).toEqual([]);
    });

    it('checks again a part staged before it began (a restart), and sends nothing changed', async () => {
      const context = remoteContextOf({ type: 'SFTP', fs, configId: 'cfg-r', folder: 'base/inner', stagingRoot, secrets: contractSecrets, now: contractNow });
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      // Part 1 as an earlier process left it (stored, no relay told), then changed on disk at its size.
      const first = await uploadPart(context.staging, key, uploadId, 1, Readable.from([full('p')]));
      writeFileSync(staged().find((path) => path.endsWith(`/1.${first.etag}.part`))!, full('q'));
      const second = await upload(uploadId, 2, Buffer.from('second'));
      await expect(driver.completeMultipart(key, uploadId, [{ partNumber: 1, etag: first.etag }, second])).rejects.toMatchObject({ partNumber: 1, problem: 'etag_mismatch' });
      expect(fs.files()).toEqual([]);
    });

    describe('parts whose sender keeps their bytes', () => {
      const send = async (uploadId: string, partNumber: number, body: Buffer | Readable) => {
        const [stream, size] = Buffer.isBuffer(body) ? [Readable.from([body]), body.length] : [body, MIN_PART_BYTES];
        const part = await driver.uploadPart(key, uploadId, partNumber, stream, { resendable: true, size });
        return { partNumber, etag: part.etag, size: part.size };
      };
      const stagedParts = () => staged().filter((path) => path.endsWith('.part'));

      it('sends them on as they arrive, in order whatever order they come in, and stages none', async () => {
        const counted = countWrites();
        const bytes = [full('a'), full('b'), full('c'), randomBytes(300)];
        const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
        const sent = await Promise.all([3, 1, 4, 2].map((partNumber) => send(uploadId, partNumber, bytes[partNumber - 1]!)));
        const inOrder = sent.sort((a, b) => a.partNumber - b.partNumber);
        expect(inOrder.map((part) => part.size)).toEqual([MIN_PART_BYTES, MIN_PART_BYTES, MIN_PART_BYTES, 300]);
        expect(stagedParts()).toEqual([]);
        expect(await driver.listParts(key, uploadId)).toEqual(inOrder);
        await driver.completeMultipart(key, uploadId, inOrder.map(({ partNumber, etag }) => ({ partNumber, etag })));
        expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat(bytes)));
        expect(counted.writes).toBe(1);
        expect(partials()).toEqual([]);
        expect(staged()).toEqual([]);
      });

      it('answers the same ETag as a staged part of the same bytes', async () => {
        const bytes = full('e');
        const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
        const sentOn = await send(uploadId, 1, bytes);
        const other = await driver.initMultipart('m/other.bin', { contentType: 'application/octet-stream' });
        expect((await driver.uploadPart('m/other.bin', other, 1, Readable.from([bytes]))).etag).toBe(sentOn.etag);
      });

      it('stages a part larger than a relay holds in memory, or of no told size', async () => {
        const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
        const large = await driver.uploadPart(key, uploadId, 1, Readable.from([full('l')]), { resendable: true, size: LIVE_PART_MOST_BYTES + 1 });
        const untold = await driver.uploadPart(key, uploadId, 2, Readable.from([Buffer.from('tail')]), { resendable: true });
        expect(stagedParts()).toHaveLength(2);
        await driver.completeMultipart(key, uploadId, [large, untold]);
        expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat([full('l'), Buffer.from('tail')])));
      });

      it('stages a part once too many wait for their turn, and sends it on from there', async () => {
        const bytes = [1, 2, 3, 4, 5, 6].map((number) => full(String(number)));
        const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
        // Parts 2 to 5 wait for part 1; part 6 finds no room and is staged at once.
        const waiting = [2, 3, 4, 5].map((partNumber) => send(uploadId, partNumber, bytes[partNumber - 1]!));
        // Each offer registers once its upload's folder is read: a moment, not a turn.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const sixth = await send(uploadId, 6, bytes[5]!);
        expect(stagedParts()).toHaveLength(1);
        const parts = [await send(uploadId, 1, bytes[0]!), ...(await Promise.all(waiting)), sixth];
        await driver.completeMultipart(key, uploadId, parts.map(({ partNumber, etag }) => ({ partNumber, etag })));
        expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat(bytes)));
        expect(partials()).toEqual([]);
      });

      it('tells the parts a failed relay held as missing, keeps the upload, and completes once they come again', async () => {
        const write = fs.write.bind(fs);
        let cut = false;
        fs.write = async (path, body) => {
          // The connection drops as part 2 passes.
          let passed = 0;
          const cutting = async function* () {
            for await (const chunk of body as AsyncIterable<Buffer>) {
              passed += chunk.length;
              if (passed > MIN_PART_BYTES && !cut) {
                cut = true;
                throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
              }
              yield chunk;
            }
          };
          await write(path, Readable.from(cutting()));
        };
        const bytes = [full('x'), full('y'), Buffer.from('tail')];
        const parts = bytes.map((part, index) => ({ partNumber: index + 1, etag: stagedPartEtag(part) }));
        const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
        await send(uploadId, 1, bytes[0]!);
        // Answered or failed, as the cut comes before or after its last byte is taken.
        await send(uploadId, 2, bytes[1]!).catch(() => undefined);
        await vi.waitFor(() => expect(cut).toBe(true));
        await vi.waitFor(() => expect(partials()).toEqual([]));
        // A part after the cut is staged; the ones the relay held are missing.
        await send(uploadId, 3, bytes[2]!);
        expect((await driver.listParts(key, uploadId)).map((part) => part.partNumber)).toEqual([3]);
        await expect(driver.completeMultipart(key, uploadId, parts)).rejects.toMatchObject({ partNumber: 1, problem: 'missing' });
        await send(uploadId, 1, bytes[0]!);
        await send(uploadId, 2, bytes[1]!);
        await driver.completeMultipart(key, uploadId, parts);
        expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat(bytes)));
        expect(partials()).toEqual([]);
        expect(staged()).toEqual([]);
      });

      it('fails alone a part whose body is cut off, sending none of it, and takes it when it comes again', async () => {
        const counted = countWrites();
        const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
        const first = await send(uploadId, 1, full('1'));
        const cutOff = Readable.from((async function* () { yield full('2').subarray(0, 1024); throw new Error('client went away'); })());
        await expect(send(uploadId, 2, cutOff)).rejects.toThrow('client went away');
        await expect(relayedBytes(MIN_PART_BYTES)).resolves.toHaveLength(MIN_PART_BYTES);
        const second = await send(uploadId, 2, Buffer.from('second'));
        expect(stagedParts()).toEqual([]);
        await driver.completeMultipart(key, uploadId, [first, second]);
        expect(digest(await readAll(await driver.get(key)))).toBe(digest(Buffer.concat([full('1'), Buffer.from('second')])));
        expect(counted.writes).toBe(1);
      });
    });

    it('stops its relays when it closes, leaving no partial file', async () => {
      const uploadId = await driver.initMultipart(key, { contentType: 'application/octet-stream' });
      await upload(uploadId, 1, Buffer.from('first'));
      await relayedBytes(5);
      await driver.close();
      expect(fs.files()).toEqual([]);
    });
  });
});
